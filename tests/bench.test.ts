import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

// The benchmark's smoke mode: every server started for real on 127.0.0.1, put under a second of load per
// case by wrk (or autocannon), every answer compared. No test here asserts a speed.

const root = join(import.meta.dirname, '..')
const work = mkdtempSync(join(tmpdir(), 'fw-bench-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function bench(args: string[], script = 'run.mjs'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bench', script), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

interface CaseResult {
  requests: number
  rps: number
  p99Ms: number
  errors: number
  non2xx: number
  mismatches: number
}

interface PairedResult {
  key: string
  ratio: number | null
  counted: number
  leftOut: number
  rounds: { rpsA: number; rpsB: number; ratio: number; idleShare: number | null; saturated: boolean }[]
}

interface ServerResult {
  label: string
  cases: Record<string, CaseResult>
  coldStartMs: Record<string, number>
  rssBytes: Record<string, number>
}

describe('npm run bench', () => {
  it('--smoke starts Fw and every peer, and each answers every case correctly under load with no errors', async () => {
    const out = join(work, 'smoke.json')
    const run = await bench(['--smoke', '--routes', '10,1000', '--out', out])
    expect(run.stderr.split('\n').filter((line) => line.startsWith('bench:'))).toEqual([])
    expect(run.code).toBe(0)

    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      mode: string
      baseline: string
      failures: string[]
      servers: Record<string, ServerResult>
      paired: PairedResult[]
    }
    expect(result.mode).toBe('smoke')
    expect(result.failures).toEqual([])
    expect(Object.keys(result.servers).sort()).toEqual(['express', 'fastify', 'fw', 'hono', 'node-http', 'polka-0.5', 'polka-next'])
    for (const [id, server] of Object.entries(result.servers)) {
      expect(Object.keys(server.cases).sort(), id).toEqual(['echo', 'hello', 'user', 'user@10', 'user@1000'])
      for (const [key, measured] of Object.entries(server.cases)) {
        expect(measured.requests, `${id} ${key}`).toBeGreaterThan(0)
        expect({ errors: measured.errors, non2xx: measured.non2xx, mismatches: measured.mismatches }, `${id} ${key}`).toEqual({
          errors: 0,
          non2xx: 0,
          mismatches: 0,
        })
      }
      expect(server.coldStartMs['0'], id).toBeGreaterThan(0)
      expect(server.rssBytes['0'], id).toBeGreaterThan(0)
      expect(run.stdout).toContain(`| ${server.label} |`)
    }
    expect(result.servers.fw!.cases.hello!.rps / result.servers['polka-next']!.cases.hello!.rps).toBeCloseTo(
      (result.servers.fw!.cases.hello as CaseResult & { rpsRatio: number }).rpsRatio,
    )

    // The paired measurement ran too: Fw and polka@next loaded at once, Fw validating the echo's body against the
    // route's declared schema and with the schema in the handler, Fw answering a user with its declared .returns()
    // against without, and Fw with 1,000 routes against 10.
    expect(result.paired.map((pair) => pair.key)).toEqual(['hello', 'user', 'echo/contract', 'user/returns', 'routes@1000/10'])
    for (const pair of result.paired) {
      expect(pair.rounds, pair.key).toHaveLength(1)
      const [round] = pair.rounds
      expect(round!.rpsA, pair.key).toBeGreaterThan(0)
      expect(round!.rpsB, pair.key).toBeGreaterThan(0)
      expect(round!.ratio, pair.key).toBeCloseTo(round!.rpsB / round!.rpsA)
      expect(pair.counted + pair.leftOut, pair.key).toBe(1)
    }
    expect(run.stdout).toContain('**Paired on one core**')
    expect(run.stdout).toContain('| Fw with 1,000 routes ÷ Fw with 10, GET /users/:id |')
    expect(run.stdout).toContain('| Fw, .body(schema) and request.validate() ÷ request.validate(schema), POST /users (JSON echo) |')
  })

  it('--suite db --smoke starts PostgreSQL, verifies and loads Fw and every peer on TechEmpower\'s test types, and stops it', async () => {
    const out = join(work, 'smoke-db.json')
    const ours = (name: string) => name.startsWith('fw-bench-pg-') || name.startsWith('fw-bench-sqlite-')
    const before = new Set(readdirSync('/tmp').filter(ours))
    const run = await bench(['--suite', 'db', '--smoke', '--out', out])
    expect(run.stderr.split('\n').filter((line) => line.startsWith('bench:'))).toEqual([])
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/^PostgreSQL \d+\.\d+.* on 127\.0\.0\.1:\d+ \(data in \/tmp\/fw-bench-pg-/m)

    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      suite: string
      mode: string
      failures: string[]
      settings: { database: { postgres: string; poolMax: number } }
      fastestPeers: Record<string, string>
      queriesPerAnswer: Record<string, Record<string, number>>
      servers: Record<string, ServerResult>
      paired: (PairedResult & { peer: string })[]
    }
    expect(result).toMatchObject({ suite: 'db', mode: 'smoke', failures: [], settings: { database: { poolMax: 10 } } })
    expect(result.settings.database.postgres).toMatch(/^\d+\.\d+/)
    expect(Object.keys(result.servers).sort()).toEqual(['express-pg', 'fastify-kysely', 'fastify-pg', 'fw', 'fw-sqlite', 'hono-pg', 'node-http-pg'])
    const tests = ['db', 'fortunes', 'json', 'plaintext', 'posts', 'queries1', 'queries20', 'updates20']
    for (const [id, server] of Object.entries(result.servers)) {
      expect(Object.keys(server.cases).sort(), id).toEqual(tests)
      for (const [key, measured] of Object.entries(server.cases)) {
        expect(measured.requests, `${id} ${key}`).toBeGreaterThan(0)
        expect({ errors: measured.errors, non2xx: measured.non2xx, mismatches: measured.mismatches }, `${id} ${key}`).toEqual({ errors: 0, non2xx: 0, mismatches: 0 })
      }
      expect(run.stdout).toContain(`| ${server.label} |`)
    }
    // Fw is compared with the fastest peer on pg, paired, on every test (and with fastify + kysely on /db and /fortunes).
    const fw = result.servers.fw!.cases
    for (const test of tests) {
      const peer = result.fastestPeers[test]!
      expect(['node-http-pg', 'fastify-pg', 'fastify-kysely', 'hono-pg', 'express-pg'], test).toContain(peer)
      expect((fw[test] as CaseResult & { rpsRatio: number }).rpsRatio, test).toBeCloseTo(fw[test]!.rps / result.servers[peer]!.cases[test]!.rps)
    }
    const compared = result.paired.map((pair) => pair.key.split('/')[0])
    expect(new Set(compared)).toEqual(new Set(['json', 'plaintext', 'db', 'queries1', 'queries20', 'updates20', 'fortunes', 'posts']))
    // The blog page: Fw's eager loading against the same rows loaded by hand with kysely, in one query per relation.
    expect(result.paired.filter((pair) => pair.key.startsWith('posts/')).map((pair) => pair.peer)).toEqual(['fastify-kysely'])
    expect(result.queriesPerAnswer.posts).toEqual({ fw: 3, 'node-http-pg': 2, 'fastify-pg': 2, 'fastify-kysely': 2, 'hono-pg': 2, 'express-pg': 2 })
    // And kysely's own cost, fastify + kysely ÷ fastify + pg, on /db and /fortunes: measured, with no target.
    expect(result.paired.filter((pair) => pair.peer === 'fastify-pg' && pair.key.endsWith('/kysely-cost')).map((pair) => pair.key)).toEqual(['db/kysely-cost', 'fortunes/kysely-cost'])
    for (const pair of result.paired) {
      expect(pair.rounds, pair.key).toHaveLength(1)
      const [round] = pair.rounds
      expect(round!.rpsA, pair.key).toBeGreaterThan(0)
      expect(round!.rpsB, pair.key).toBeGreaterThan(0)
      // The stored req/s are rounded, and at 20 updates a request they are small numbers: equal within rounding.
      const rounding = round!.ratio * (0.5 / round!.rpsA + 0.5 / round!.rpsB) * 1.01
      expect(Math.abs(round!.ratio - round!.rpsB / round!.rpsA), pair.key).toBeLessThanOrEqual(rounding)
      expect(pair.ratio, pair.key).toBe(pair.counted ? round!.ratio : null)
    }
    // PostgreSQL and the SQLite file are gone.
    expect(readdirSync('/tmp').filter((name) => ours(name) && !before.has(name))).toEqual([])
  })

  it('--suite db --smoke pairs route model binding with findOrFail by hand on one path, one statement each, only when named', async () => {
    const out = join(work, 'smoke-binding.json')
    const run = await bench(['--suite', 'db', '--smoke', '--servers', 'fw-bound,fw-by-hand', '--cases', 'world', '--out', out])
    expect(run.stderr.split('\n').filter((line) => line.startsWith('bench:'))).toEqual([])
    expect(run.code).toBe(0)
    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      failures: string[]
      queriesPerAnswer: Record<string, Record<string, number>>
      servers: Record<string, ServerResult>
      paired: PairedResult[]
      targets: { name: string; target: string }[]
    }
    expect(result.failures).toEqual([])
    expect(result.queriesPerAnswer.world).toEqual({ 'fw-bound': 1, 'fw-by-hand': 1 })
    for (const id of ['fw-bound', 'fw-by-hand']) {
      const measured = result.servers[id]!.cases.world!
      expect(measured.requests, id).toBeGreaterThan(0)
      expect({ errors: measured.errors, non2xx: measured.non2xx, mismatches: measured.mismatches }, id).toEqual({ errors: 0, non2xx: 0, mismatches: 0 })
    }
    expect(result.paired.map((pair) => pair.key)).toEqual(['world/binding'])
    expect(result.targets.map((goal) => goal.target)).toEqual(['>= 0.97'])
    expect(result.paired[0]!.rounds[0]!.rpsA).toBeGreaterThan(0)
    expect(run.stdout).toContain("| Fw, .bind('world', World) ÷ World.findOrFail(id) by hand, GET /world/4242 |")
  })

  it('--suite queue --smoke drains the same jobs through Fw on PostgreSQL and SQLite and through pg-boss used directly', async () => {
    const out = join(work, 'smoke-queue.json')
    const ours = (name: string) => name.startsWith('fw-bench-pg-') || name.startsWith('fw-bench-queue-')
    const before = new Set(readdirSync('/tmp').filter(ours))
    const run = await bench(['--suite', 'queue', '--smoke', '--out', out])
    expect(run.stderr.split('\n').filter((line) => line.startsWith('bench:'))).toEqual([])
    expect(run.code).toBe(0)
    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      suite: string
      mode: string
      settings: { jobs: number; workers: number[] }
      summary: { participant: string; workers: number; dispatchRate: number; drainRate: number; p50: number; p99: number }[]
      paired: { workers: number; drain: number; dispatch: number }[]
    }
    expect(result).toMatchObject({ suite: 'queue', mode: 'smoke', settings: { jobs: 300, workers: [1] } })
    expect(result.summary.map((row) => row.participant)).toEqual(['fw-pg', 'pgboss', 'fw-sqlite'])
    for (const row of result.summary) {
      expect(row.dispatchRate, row.participant).toBeGreaterThan(0)
      expect(row.drainRate, row.participant).toBeGreaterThan(0)
      expect(row.p50, row.participant).toBeLessThanOrEqual(row.p99)
    }
    const [pair] = result.paired
    expect(pair!.drain).toBeCloseTo(result.summary[0]!.drainRate / result.summary[1]!.drainRate)
    expect(run.stdout).toMatch(/^Fw on PostgreSQL \(pg-boss\) +1 +\d+ +\d+ /m)
    expect(run.stdout).toMatch(/^Fw ÷ pg-boss, 1 worker\(s\), paired by round: drain \d\.\d\d×/m)
    // PostgreSQL and the bench app are gone.
    expect(readdirSync('/tmp').filter((name) => ours(name) && !before.has(name))).toEqual([])
  })

  it('--suite cache --smoke starts Redis, pairs GET /cached on every store against the constant and fastify with the same engine, and stops it', async () => {
    const out = join(work, 'smoke-cache.json')
    const ours = (name: string) => name.startsWith('fw-bench-redis-') || name.startsWith('fw-bench-cache-')
    const before = new Set(readdirSync('/tmp').filter(ours))
    const run = await bench(['--suite', 'cache', '--smoke', '--out', out])
    expect(run.stderr.split('\n').filter((line) => line.startsWith('bench:'))).toEqual([])
    expect(run.code).toBe(0)
    const started = /^Redis \d+\.\d+\.\d+ on 127\.0\.0\.1:(\d+) \(pid (\d+), no persistence\)$/m.exec(run.stderr)
    expect(started, run.stderr).not.toBeNull()

    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      suite: string
      mode: string
      baseline: string
      failures: string[]
      settings: { stores: { redis: string; database: string } }
      servers: Record<string, ServerResult>
      paired: (PairedResult & { target: number | null })[]
      targets: { name: string; value: number | null; target: string }[]
    }
    expect(result).toMatchObject({ suite: 'cache', mode: 'smoke', baseline: 'fw-constant', failures: [], settings: { stores: { database: 'sqlite' } } })
    expect(result.settings.stores.redis).toMatch(/^\d+\.\d+\.\d+$/)
    const servers = ['fastify-bentocache', 'fastify-ioredis', 'fw-constant', 'fw-database', 'fw-memory', 'fw-redis']
    expect(Object.keys(result.servers).sort()).toEqual(servers)
    for (const [id, server] of Object.entries(result.servers)) {
      const measured = server.cases.cached!
      expect(measured.requests, id).toBeGreaterThan(0)
      expect({ errors: measured.errors, non2xx: measured.non2xx, mismatches: measured.mismatches }, id).toEqual({ errors: 0, non2xx: 0, mismatches: 0 })
      expect(run.stdout).toContain(`| ${server.label} |`)
    }
    // Every store against Fw's constant; Redis against fastify + ioredis and memory against fastify + bentocache.
    expect(result.paired.map((pair) => [pair.key, pair.target])).toEqual([
      ['fw-memory/fw-constant', 0.95],
      ['fw-database/fw-constant', null],
      ['fw-redis/fw-constant', null],
      ['fw-redis/fastify-ioredis', 0.9],
      ['fw-memory/fastify-bentocache', null],
    ])
    for (const pair of result.paired) {
      expect(pair.rounds, pair.key).toHaveLength(1)
      const [round] = pair.rounds
      expect(round!.rpsA, pair.key).toBeGreaterThan(0)
      expect(round!.rpsB, pair.key).toBeGreaterThan(0)
      expect(round!.ratio, pair.key).toBeCloseTo(round!.rpsB / round!.rpsA, 2)
    }
    expect(result.targets.map((goal) => goal.target)).toEqual(['>= 0.95', '>= 0.90', '0', '0'])
    expect(result.targets.slice(2).map((goal) => goal.value)).toEqual([0, 0])
    expect(run.stdout).toContain('**Paired on one core**')
    expect(run.stdout).toMatch(/^\| Fw \(fw-runtime [^)]+\), cache\(\)\.remember, Redis store ÷ fastify [\d.]+ \+ ioredis [\d.]+ \(get\), GET \/cached \| \d+\.\d\d× \|/m)
    // Redis is stopped (its PID gone, its port closed) and its folder and the SQLite file removed.
    expect(existsSync(`/proc/${started![2]}`)).toBe(false)
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(started![1]), '127.0.0.1')
      socket.once('connect', () => resolve(false))
      socket.once('error', () => resolve(true))
    })
    expect(refused).toBe(true)
    expect(readdirSync('/tmp').filter((name) => ours(name) && !before.has(name))).toEqual([])
  })

  it('--suite types --smoke type-checks both typed clients and the starter without and with Fw\'s, fails a wrong body type in each, and removes its apps', async () => {
    const out = join(work, 'smoke-types.json')
    const ours = (name: string) => name.startsWith('fw-bench-types-')
    const before = new Set(readdirSync(tmpdir()).filter(ours))
    const run = await bench(['--suite', 'types', '--smoke', '--out', out])
    expect(run.stderr.split('\n').filter((line) => line.startsWith('bench:'))).toEqual([])
    expect(run.code).toBe(0)
    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      suite: string
      mode: string
      settings: { routeCounts: number[]; rounds: number }
      verified: { app: string; routes: number; error: string }[]
      summary: {
        byRoutes: {
          routes: number
          programs: Record<string, { wallMs: number; cpuMs: number; checkMs: number; memoryKB: number; types: number }>
          clientAddedToStarter: { wallMs: number; fastestWallMs: number; cpuMs: number }
          generation: { routes?: number; bytes: number }
        }[]
      }
    }
    expect(result).toMatchObject({ suite: 'types', mode: 'smoke', settings: { routeCounts: [10], rounds: 1 } })
    // The types are real: one body field of the wrong type fails tsc in the client of each.
    expect(result.verified.map((check) => check.app)).toEqual(['fw', 'hono'])
    for (const check of result.verified) expect(check.error, check.app).toMatch(/^client-wrong\.ts\(\d+,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/)
    const [measured] = result.summary.byRoutes
    expect(Object.keys(measured!.programs)).toEqual(['fw-client', 'hono-client', 'fw-server', 'hono-server', 'starter', 'starter-client'])
    for (const [id, program] of Object.entries(measured!.programs)) {
      expect([program.wallMs, program.cpuMs, program.checkMs, program.memoryKB].every((value) => value > 0), id).toBe(true)
    }
    // The starter pair differs by the client alone: its program has more types, and the difference is reported.
    expect(measured!.programs['starter-client']!.types).toBeGreaterThan(measured!.programs.starter!.types)
    expect(Object.values(measured!.clientAddedToStarter).every(Number.isFinite)).toBe(true)
    expect(run.stdout).toMatch(/^\| 10 \| starter \+ client\.ts − starter \| -?\d+\.\d\d \|/m)
    expect(measured!.generation.bytes).toBeGreaterThan(0)
    expect(run.stdout).toMatch(/^\| 10 \| Fw client \(client\.ts \+ \.fw\/api\.d\.ts\) \| \d+\.\d\d \|/m)
    expect(readdirSync(tmpdir()).filter((name) => ours(name) && !before.has(name))).toEqual([])
  })

  it('checks TechEmpower\'s answers as its verifier does: sizes, numbers as numbers, ranges, escaping, Content-Type', async () => {
    const cases = (await import(pathToFileURL(join(root, 'bench', 'lib', 'db-cases.mjs')).href)) as {
      DB_CASES: Record<string, { expect: { kind: string; count?: number; body?: string } }>
      FORTUNES_HTML: string
      wrongBody: (body: string, expect: object) => string | null
    }
    const process = (await import(pathToFileURL(join(root, 'bench', 'lib', 'server-process.mjs')).href)) as {
      checkAnswer: (answer: object, testCase: object) => string | null
    }
    const { DB_CASES, FORTUNES_HTML, wrongBody } = cases
    const rows = (n: number) => `[${Array.from({ length: n }, (_, i) => `{"id":${i + 1},"randomNumber":${10000 - i}}`).join(',')}]`
    expect(wrongBody('{"id":1,"randomNumber":10000}', DB_CASES.db!.expect)).toBeNull()
    expect(wrongBody('{"id":"1","randomNumber":5}', DB_CASES.db!.expect)).not.toBeNull()
    expect(wrongBody('{"id":1,"randomNumber":10001}', DB_CASES.db!.expect)).not.toBeNull()
    expect(wrongBody('{"id":0,"randomNumber":5}', DB_CASES.db!.expect)).not.toBeNull()
    expect(wrongBody('[{"id":1,"randomNumber":5}]', DB_CASES.db!.expect)).not.toBeNull()
    expect(wrongBody(rows(1), DB_CASES.queries1!.expect)).toBeNull()
    expect(wrongBody(rows(20), DB_CASES.queries20!.expect)).toBeNull()
    expect(wrongBody(rows(19), DB_CASES.queries20!.expect)).not.toBeNull()
    expect(wrongBody(rows(20).replace('},{', '}{'), DB_CASES.queries20!.expect)).not.toBeNull()
    expect(wrongBody('{"id":1,"randomNumber":5}', DB_CASES.queries1!.expect)).not.toBeNull()
    // The fortunes page: the added row, sorted, every special character escaped, UTF-8 kept.
    expect(FORTUNES_HTML).toContain('<tr><td>0</td><td>Additional fortune added at request time.</td></tr>')
    expect(FORTUNES_HTML).toContain('<td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td>')
    expect(FORTUNES_HTML).toContain('aren&#39;t broken')
    expect(FORTUNES_HTML).toContain('<td>フレームワークのベンチマーク</td></tr></table>')
    expect(FORTUNES_HTML.indexOf('<td>11</td>')).toBeLessThan(FORTUNES_HTML.indexOf('<td>4</td>'))
    expect(wrongBody(FORTUNES_HTML.replace('&lt;script&gt;', '<script>'), DB_CASES.fortunes!.expect)).not.toBeNull()
    // The blog page: the 50 latest published posts (1,000 is not: every fourth is a draft), each with its author and
    // its comments, times in UTC.
    const posts = JSON.parse(DB_CASES.posts!.expect.body!) as { id: number; published: boolean; author: { id: number }; comments: { post_id: number }[] }[]
    expect(posts.map((post) => post.id).slice(0, 4)).toEqual([999, 998, 997, 995])
    expect(posts).toHaveLength(50)
    expect(posts[0]).toEqual({
      id: 999,
      author_id: 19,
      title: 'Post 999',
      body: 'Post 999 says what it has to say in a sentence or two, as a short post does.',
      published: true,
      created_at: '2026-01-01T16:39:00.000Z',
      updated_at: '2026-01-01T16:39:00.000Z',
      author: { id: 19, name: 'Author 19', email: 'author19@example.com' },
      comments: [1, 2, 3].map((k) => ({ id: 2994 + k, post_id: 999, body: `Comment ${k} on post 999`, created_at: `2026-01-01T16:39:0${k}.000Z` })),
    })
    expect(posts.every((post) => post.published && post.author.id > 0 && post.comments.every((comment) => comment.post_id === post.id))).toBe(true)
    const answer = { status: 200, body: FORTUNES_HTML, contentType: 'text/html; charset=UTF-8' }
    expect(process.checkAnswer(answer, DB_CASES.fortunes!)).toBeNull()
    expect(process.checkAnswer({ ...answer, contentType: 'text/html' }, DB_CASES.fortunes!)).toMatch(/Content-Type/)
    expect(process.checkAnswer({ status: 200, body: 'Hello, World!', contentType: 'application/json' }, DB_CASES.plaintext!)).toMatch(/Content-Type/)
  })

  it('bench:profile measures CPU, allocations and GC per request, tells kysely from fw-runtime, and keeps the profiles', async () => {
    const out = join(work, 'profiles')
    const before = new Set(readdirSync('/tmp').filter((name) => name.startsWith('fw-bench-pg-')))
    const run = await bench(['--servers', 'fw,fastify-pg', '--cases', 'db', '--duration', '1', '--warmup', '1', '--out', out], 'profile.mjs')
    expect(run.stderr).not.toMatch(/^bench:profile:/m)
    expect(run.code).toBe(0)
    for (const server of ['fw', 'fastify-pg']) {
      const row = run.stdout.split('\n').find((line) => line.startsWith(`| db | ${server} |`))
      expect(row, server).toBeDefined()
      const [rps, cpu, , bytes] = row!.split('|').slice(3, 7).map((cell) => Number(cell.trim().replace(/,/g, '')))
      expect([rps, cpu, bytes].every((value) => value! > 0), `${server}: ${row}`).toBe(true)
      expect(existsSync(join(out, `${server}-db.cpuprofile`))).toBe(true)
      expect(existsSync(join(out, `${server}-db.heapprofile`))).toBe(true)
    }
    // fw-runtime bundles kysely: through the source maps, each is counted apart and named by its source file.
    const fw = run.stdout.slice(run.stdout.indexOf('### fw, db'), run.stdout.indexOf('### fastify-pg, db'))
    expect(fw).toMatch(/^ +[\d.,]+ +kysely$/m)
    expect(fw).toMatch(/^ +[\d.,]+ +fw-runtime$/m)
    expect(fw).toMatch(/runtime\/src\/\S+\.ts:\d+/)
    expect(fw).not.toContain('runtime/dist/')
    expect(readdirSync('/tmp').filter((name) => name.startsWith('fw-bench-pg-') && !before.has(name))).toEqual([])
  })

  it('--suite db counts the wrong answers a server gives only under load, and fails naming it', async () => {
    const run = await bench(['--suite', 'db', '--smoke', '--servers', 'node-http-pg', '--cases', 'db', '--paired-rounds', '0', '--add', 'wrong=bench/fixtures/wrong-db-server.mjs'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^bench: round 1, wrong: single query: 0 errors, 0 non-2xx, \d+ wrong answers under load \(first: 200 \{"id":"\d+"/m)
    expect(run.stderr).not.toMatch(/^bench: .*node-http-pg/m)
  })

  it('--suite db counts the statements of one GET /posts, and fails a server that loads the relations row by row', async () => {
    const run = await bench(['--suite', 'db', '--smoke', '--servers', 'fastify-kysely', '--cases', 'posts', '--paired-rounds', '0', '--add', 'lazy=bench/fixtures/n-plus-one-server.mjs'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^fastify-kysely: GET \/posts ran 2 statements on PostgreSQL$/m)
    expect(run.stderr).toMatch(/^bench: verify, lazy: GET \/posts ran 101 statements on PostgreSQL, more than 3$/m)
    expect(run.stderr).not.toMatch(/^bench: .*fastify-kysely/m)
  })

  it('judges the req/s targets on the paired ratio, leaving out rounds that did not keep the core busy', async () => {
    const report = (await import(pathToFileURL(join(root, 'bench', 'lib', 'report.mjs')).href)) as {
      summarize: (samples: object[], servers: object[], baseline: string) => Record<string, unknown>
      summarizePairs: (samples: object[], pairs: object[]) => { key: string; ratio: number | null; counted: number; leftOut: number }[]
      targets: (summary: Record<string, unknown>, routeCounts: number[], pairs?: object[]) => { name: string; value: number | null; method?: string; alone?: number | null; met: boolean | null }[]
    }
    const servers = [{ id: 'fw', label: 'Fw' }, { id: 'polka-next', label: 'polka' }]
    const measured = (server: string, key: string, rps: number) => ({ round: 0, server, key, rps, p99Ms: 1, requests: rps, errors: 0, non2xx: 0, mismatches: 0, firstAnswerMs: 1 })
    // Measured one after another, the machine slowed down between the two: Fw looks like 0.70× on /hello.
    const summary = report.summarize(
      [measured('fw', 'hello', 7000), measured('polka-next', 'hello', 10000), measured('fw', 'user', 9000), measured('polka-next', 'user', 10000)],
      servers,
      'polka-next',
    )
    const round = (ratio: number, saturated: boolean) => ({ key: 'hello', rpsA: 10000, rpsB: 10000 * ratio, ratio, idleShare: saturated ? 0 : 0.3, stealShare: 0, saturated })
    const pairs = report.summarizePairs(
      [round(0.91, true), round(0.99, false), round(0.89, true), round(0.93, true)],
      [{ key: 'hello', label: 'Fw ÷ polka, GET /hello' }],
    )
    expect(pairs).toMatchObject([{ key: 'hello', ratio: 0.91, counted: 3, leftOut: 1 }])

    const [hello, user] = report.targets(summary, [10], pairs)
    expect(hello).toMatchObject({ value: 0.91, method: 'paired', alone: 0.7, met: true })
    // No paired measurement of /users/:id: judged on the figures measured alone.
    expect(user).toMatchObject({ value: 0.9, method: 'alone', met: true })
    expect(report.targets(summary, [10])[0]).toMatchObject({ value: 0.7, method: 'alone', met: false })
  })

  it('--suite db judges p99 against the fastest peer on any driver, on the paired rounds when Fw was paired with it', async () => {
    const report = (await import(pathToFileURL(join(root, 'bench', 'lib', 'report.mjs')).href)) as {
      summarizePairs: (samples: object[], pairs: object[]) => { key: string; p99Ratio: number | null }[]
    }
    const db = (await import(pathToFileURL(join(root, 'bench', 'lib', 'db-report.mjs')).href)) as {
      dbTargets: (summary: object, fastest: object, pairs: object[]) => { name: string; value: number | null; method?: string; alone?: number | null; met: boolean | null }[]
    }
    const round = (p99A: number, p99B: number, saturated = true) => ({ key: 'db/fastify-postgresjs', rpsA: 1000, rpsB: 1100, ratio: 1.1, p99A, p99B, p99Ratio: p99B / p99A, saturated })
    const [pair] = report.summarizePairs([round(10, 12), round(10, 9), round(10, 10), round(10, 30, false)], [{ key: 'db/fastify-postgresjs', label: 'Fw ÷ fastify + postgres.js, /db' }])
    expect(pair).toMatchObject({ key: 'db/fastify-postgresjs', p99Ratio: 1 })

    const entry = (rps: number, p99Ms: number) => ({ cases: { db: { rps, p99Ms, errors: 0, non2xx: 0, mismatches: 0 } } })
    // Measured one after another, Fw's p99 was twice fastify + postgres.js's; at the same moment, paired, it was the same.
    const summary = { fw: entry(24000, 12), 'fastify-pg': entry(13000, 20), 'fastify-postgresjs': entry(18000, 6) }
    const pairs = [{ ...pair, peer: 'fastify-postgresjs', ratio: 1.1 }]
    const p99 = db.dbTargets(summary, { db: 'fastify-pg' }, pairs).find((target) => target.name.startsWith('Fw p99'))
    expect(p99).toMatchObject({ name: 'Fw p99 ÷ the fastest peer\'s (fastify-postgresjs), /db', value: 1, method: 'paired', alone: 2, met: true })
    // Not paired with it: judged on the rounds measured one after another.
    expect(db.dbTargets(summary, { db: 'fastify-pg' }, []).find((target) => target.name.startsWith('Fw p99'))).toMatchObject({ value: 2, method: 'alone', met: false })
  })

  it('stops the servers it started when it is interrupted', async () => {
    const out = join(work, 'interrupted.json')
    const child = spawn(
      process.execPath,
      [join(root, 'bench', 'run.mjs'), '--servers', 'polka-next', '--cases', 'hello,user,echo', '--rounds', '1', '--duration', '2', '--paired-rounds', '0', '--out', out],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
    let stderr = ''
    // The first measurement is logged while the server still has two cases to answer.
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk
        if (stderr.includes('round 1, polka-next: GET /hello')) resolve()
      })
      child.once('close', () => reject(new Error(`the run ended before its first measurement:\n${stderr}`)))
    })
    const servers = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('servers/polka-next.mjs'))
    expect(servers).toHaveLength(1)

    child.kill('SIGINT')
    expect(await closed).toBe(130)
    expect(stderr).toContain('bench: interrupted (SIGINT); stopping the servers it started')
    expect(existsSync(`/proc/${servers[0]}`)).toBe(false)
    expect(existsSync(out)).toBe(false)
  })

  it('fails with one line naming the server when answers go wrong only under load', async () => {
    const run = await bench(['--smoke', '--servers', 'polka-next', '--cases', 'user', '--add', 'flaky=bench/fixtures/flaky-server.mjs'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^bench: round 1, flaky: GET \/users\/:id: 0 errors, 0 non-2xx, \d+ wrong answers under load/m)
    expect(run.stderr).not.toMatch(/^bench: .*polka-next/m)
  })
})
