// `npm run bench -- --suite types`: what typed API clients cost tsc, Fw's generated types against Hono's inferred RPC
// client, at N routes. See bench/README.md, "The type-check suite".
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { BENCH_DIR, BenchError, ROOT_DIR } from './setup.mjs'
import { calledRoutes, fwClientSource, fwRoutesSource, honoAppSource, honoClientSource, resources, schemasSource } from './types-apps.mjs'

const TSC = join(ROOT_DIR, 'node_modules', 'typescript', 'bin', 'tsc')
const FW = join(ROOT_DIR, 'runtime', 'dist', 'cli', 'fw.js')
const RENDER = join(BENCH_DIR, 'lib', 'types-render.mjs')
const CPU_TIME = pathToFileURL(join(BENCH_DIR, 'lib', 'types-cpu-time.mjs')).href

/** The routes the clients call (fewer when the API has fewer). */
export const CALLS = 20

/** The most the typed client may add to the starter's tsc at 400 routes, wall time (issue 38). */
const CLIENT_BUDGET_MS = 1000

/**
 * The compiler options of every program: an app's strict settings. A client is a browser's code (the DOM's fetch, no
 * Node types); Fw's routes need Node's types, which fw-runtime's declarations name.
 */
const COMPILER_OPTIONS = {
  strict: true,
  skipLibCheck: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023', 'DOM'],
  types: [],
  noEmit: true,
}

/**
 * The starter's compiler options, read from template/api/tsconfig.json as `npm create fw-app` copies it: what an app's
 * `npm run typecheck` runs with (`types: ["node"]`, `@types/node` from the repository's node_modules).
 */
const STARTER_OPTIONS = JSON.parse(readFileSync(join(ROOT_DIR, 'template', 'api', 'tsconfig.json'), 'utf8')).compilerOptions

/**
 * The starter's bootstrap/app.ts, the Fw app's own: its global middleware (maintenanceMode's 503) are in every
 * operation of the document, as in an app made by `npm create fw-app`.
 */
const STARTER_BOOTSTRAP = readFileSync(join(ROOT_DIR, 'template', 'api', 'bootstrap', 'app.ts'), 'utf8')

/**
 * The programs measured, each a tsconfig of one app: `files` are its roots; tsc follows their imports. The baseline
 * is an empty file, what tsc costs before any code of ours (its start and lib.d.ts). The starter pair is the Fw app
 * under the starter's own options, without the client and with it: the difference is what the typed client adds to
 * an app's tsc (issue 38 asks at most 1.0 s at 400 routes).
 */
export const PROGRAMS = {
  'fw-client': { label: 'Fw client (client.ts + .fw/api.d.ts)', app: 'fw', tsconfig: 'tsconfig.client.json', files: ['client.ts'] },
  'hono-client': { label: 'Hono client (client.ts + app.ts)', app: 'hono', tsconfig: 'tsconfig.client.json', files: ['client.ts'] },
  'fw-server': { label: 'Fw routes and schemas', app: 'fw', tsconfig: 'tsconfig.json', files: ['routes/web.ts'], types: ['node'] },
  'hono-server': { label: 'Hono app and schemas', app: 'hono', tsconfig: 'tsconfig.json', files: ['app.ts'] },
  starter: { label: "Fw app (bootstrap, routes, schemas), the starter's tsconfig", app: 'fw', tsconfig: 'tsconfig.starter.json', files: ['bootstrap/app.ts', 'routes/web.ts'], options: STARTER_OPTIONS },
  'starter-client': { label: "the same and client.ts, the starter's tsconfig", app: 'fw', tsconfig: 'tsconfig.starter-client.json', files: ['bootstrap/app.ts', 'routes/web.ts', 'client.ts'], options: STARTER_OPTIONS },
  baseline: { label: 'an empty file (tsc alone)', app: 'empty', tsconfig: 'tsconfig.json', files: ['empty.ts'], perRun: true },
}

/**
 * Runs the suite: writes both apps at every route count into a folder under the system's temporary one, checks that a
 * wrong body type fails tsc for both clients, then, round after round, runs `fw types`, times the document and
 * openapi-typescript in one process, and runs `tsc --noEmit -p` over every program, in an order that rotates.
 * Resolves to `{ runs, generation, verified, summary, tables, loadAverage }`.
 */
export async function runTypesSuite(opts, { log }) {
  const root = mkdtempSync(join(tmpdir(), 'fw-bench-types-'))
  const remove = () => rmSync(root, { recursive: true, force: true })
  if (!opts.keep) process.once('exit', remove)
  try {
    linkModules(root)
    writeApp(join(root, 'empty'), { 'empty.ts': 'export {}\n' }, ['baseline'])
    for (const routes of opts.routeCounts) writeApps(join(root, String(routes)), routes)
    if (opts.keep) log(`The apps are in ${root} (--keep)`)

    const verified = []
    for (const routes of opts.routeCounts.slice(0, 1)) {
      await fwTypes(join(root, String(routes), 'fw'))
      for (const app of ['fw', 'hono']) verified.push(await verifyWrongBody(join(root, String(routes), app), app, routes, log))
    }

    const runs = []
    const generation = []
    for (let round = 1; round <= opts.rounds; round++) {
      runs.push(await measureTsc(root, 'baseline', 0, round))
      for (const routes of opts.routeCounts) {
        const dir = join(root, String(routes))
        generation.push(await measureGeneration(join(dir, 'fw'), routes, round, log))
        for (const id of roundOrder(round)) {
          const run = await measureTsc(dir, id, routes, round)
          runs.push(run)
          log(`round ${round}, ${routes} routes, ${id}: ${seconds(run.wallMs)} s (CPU ${seconds(run.cpuMs)} s, check ${seconds(run.checkMs)} s, ${mb(run.memoryKB)} MB)`)
        }
      }
    }
    const summary = summarize(runs, generation, opts.routeCounts)
    return { settings: settings(), runs, generation, verified, summary, tables: format(summary, opts), loadAverage: loadavg() }
  } finally {
    if (!opts.keep) remove()
  }
}

/** What the results were measured with: the packages' versions and the compiler options. */
function settings() {
  const version = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
  const root = join(ROOT_DIR, 'node_modules')
  const bench = join(BENCH_DIR, 'node_modules')
  return {
    calls: CALLS,
    compilerOptions: COMPILER_OPTIONS,
    starterCompilerOptions: STARTER_OPTIONS,
    versions: {
      typescript: version(join(root, 'typescript')),
      'openapi-typescript': version(join(root, 'openapi-typescript')),
      'openapi-fetch': version(join(root, 'openapi-fetch')),
      zod: version(join(bench, 'zod')),
      hono: version(join(bench, 'hono')),
      '@hono/zod-validator': version(join(bench, '@hono', 'zod-validator')),
    },
  }
}

/** node_modules beside the apps: this checkout's fw-runtime (its build) and the bench's hono, its validator and zod. */
function linkModules(root) {
  const modules = join(root, 'node_modules')
  mkdirSync(join(modules, '@hono'), { recursive: true })
  mkdirSync(join(modules, '@types'))
  const links = {
    'fw-runtime': join(ROOT_DIR, 'runtime'),
    zod: join(BENCH_DIR, 'node_modules', 'zod'),
    hono: join(BENCH_DIR, 'node_modules', 'hono'),
    '@hono/zod-validator': join(BENCH_DIR, 'node_modules', '@hono', 'zod-validator'),
    '@types/node': join(ROOT_DIR, 'node_modules', '@types', 'node'),
  }
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(modules, name), 'dir')
}

/** Both apps of `routes` routes, each with its package.json and the tsconfig of each of its programs. */
function writeApps(dir, routes) {
  const list = resources(routes)
  const calls = calledRoutes(list, CALLS)
  writeApp(join(dir, 'fw'), {
    'bootstrap/app.ts': STARTER_BOOTSTRAP,
    'schemas.ts': schemasSource(list),
    'routes/web.ts': fwRoutesSource(list),
    'client.ts': fwClientSource(calls),
    'client-wrong.ts': fwClientSource(calls, { wrong: true }),
  }, ['fw-client', 'fw-server', 'starter', 'starter-client'])
  writeApp(join(dir, 'hono'), {
    'schemas.ts': schemasSource(list),
    'app.ts': honoAppSource(list),
    'client.ts': honoClientSource(calls),
    'client-wrong.ts': honoClientSource(calls, { wrong: true }),
  }, ['hono-client', 'hono-server'])
}

function writeApp(dir, files, programs) {
  const dependencies = programs.some((id) => PROGRAMS[id].app === 'fw') ? { 'fw-runtime': '*', zod: '*' } : { hono: '*', '@hono/zod-validator': '*', zod: '*' }
  const manifest = { name: 'fw-bench-types', version: '1.0.0', private: true, type: 'module', dependencies }
  const all = { 'package.json': `${JSON.stringify(manifest, null, 2)}\n`, ...files }
  for (const id of programs) {
    const program = PROGRAMS[id]
    all[program.tsconfig] = tsconfig(program)
  }
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
}

/** A program's tsconfig.json: its own options (the starter's) or the suite's, with its `types`. */
const tsconfig = ({ files, types = [], options = { ...COMPILER_OPTIONS, types } }) => `${JSON.stringify({ compilerOptions: options, files }, null, 2)}\n`

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output, wallMs: performance.now() - started }))
  })
}

/** `fw types` in the app's folder, as its user runs it: writes .fw/api.d.ts. Resolves to its wall time. */
async function fwTypes(dir) {
  const result = await run(process.execPath, [FW, 'types'], dir)
  if (result.code !== 0) throw new BenchError(`fw types failed in ${dir} (exit ${result.code}): ${result.output.trim().split('\n').slice(-3).join(' | ')}`)
  return result.wallMs
}

/** One generation of .fw/api.d.ts: `fw types`, timed whole, then the document and openapi-typescript timed in one process. */
async function measureGeneration(dir, routes, round, log) {
  const fwTypesMs = await fwTypes(dir)
  const result = await run(process.execPath, [RENDER], dir)
  if (result.code !== 0) throw new BenchError(`types-render.mjs failed in ${dir}: ${result.output.trim().split('\n').slice(-3).join(' | ')}`)
  const parts = JSON.parse(result.output.trim().split('\n').at(-1))
  if (parts.routes !== routes) throw new BenchError(`types-render.mjs loaded ${parts.routes} routes, not ${routes}`)
  log(
    `round ${round}, ${routes} routes, fw types: ${seconds(fwTypesMs)} s; routes ${Math.round(parts.routesMs)} ms, document ${Math.round(parts.documentMs)} ms, ` +
      `openapi-typescript ${Math.round(parts.typesMs)} ms, ${Math.round(parts.bytes / 1024)} KB`,
  )
  return { round, routes, fwTypesMs, ...parts }
}

/** What tsc's --extendedDiagnostics prints (and types-cpu-time.mjs, its CPU time), by the names the results use. */
const DIAGNOSTICS = { cpuMs: /^CPU time:\s+([\d.]+)s$/m, checkMs: /^Check time:\s+([\d.]+)s$/m, totalMs: /^Total time:\s+([\d.]+)s$/m, memoryKB: /^Memory used:\s+(\d+)K$/m, types: /^Types:\s+(\d+)$/m, instantiations: /^Instantiations:\s+(\d+)$/m, files: /^Files:\s+(\d+)$/m }

/** `tsc --noEmit -p` over one program, timed from spawn to exit, and its CPU time; fails the run unless it type-checks. */
async function measureTsc(dir, id, routes, round) {
  const program = PROGRAMS[id]
  const folder = join(dir, program.app)
  const result = await run(process.execPath, ['--import', CPU_TIME, TSC, '-p', program.tsconfig, '--extendedDiagnostics'], folder)
  if (result.code !== 0) throw new BenchError(`tsc -p ${program.tsconfig} failed for ${id} at ${routes} routes: ${result.output.split('\n').slice(0, 3).join(' | ')}`)
  const measured = { round, routes, program: id, wallMs: result.wallMs }
  for (const [name, pattern] of Object.entries(DIAGNOSTICS)) {
    const value = Number(pattern.exec(result.output)?.[1])
    measured[name] = name.endsWith('Ms') ? value * 1000 : value
  }
  return measured
}

/**
 * The proof that the clients' types are real: client-wrong.ts, the same calls with one body field of the wrong type,
 * must fail tsc, and in that file.
 */
async function verifyWrongBody(dir, app, routes, log) {
  writeFileSync(join(dir, 'tsconfig.wrong.json'), tsconfig({ files: ['client-wrong.ts'] }))
  const result = await run(process.execPath, [TSC, '-p', 'tsconfig.wrong.json'], dir)
  const errors = result.output.split('\n').filter((line) => /error TS\d+/.test(line))
  const ok = result.code !== 0 && errors.length > 0 && errors.every((line) => line.startsWith('client-wrong.ts('))
  if (!ok) throw new BenchError(`${app} at ${routes} routes: a body of the wrong type did not fail tsc as it should (exit ${result.code}): ${errors.slice(0, 2).join(' | ') || result.output.slice(0, 300)}`)
  log(`${app} at ${routes} routes: a body of the wrong type fails tsc: ${errors[0]}`)
  return { app, routes, error: errors[0] }
}

/**
 * The programs of a round, in an order that rotates from round to round; the starter pair stays together, one run
 * after the other (each first in turn), so that its difference is taken under the same load.
 */
function roundOrder(round) {
  const pair = round % 2 ? ['starter', 'starter-client'] : ['starter-client', 'starter']
  const units = Object.keys(PROGRAMS).filter((id) => !PROGRAMS[id].perRun && !pair.includes(id))
  return rotate([...units, pair], round - 1).flat()
}

function rotate(list, by) {
  const shift = by % list.length
  return [...list.slice(shift), ...list.slice(0, shift)]
}

function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * Per route count and program, the medians of the rounds; the ratio Hono client ÷ Fw client and the time the client
 * adds to the starter (starter-client − starter), each taken round by round (the two ran seconds apart) and its
 * median, and that addition between the two programs' fastest runs; and the medians of the generation's times.
 */
function summarize(runs, generation, routeCounts) {
  const medians = (list) => Object.fromEntries(['wallMs', 'cpuMs', 'checkMs', 'memoryKB', 'types', 'instantiations', 'files'].map((key) => [key, median(list.map((r) => r[key]))]))
  const baseline = medians(runs.filter((r) => r.program === 'baseline'))
  const byRoutes = routeCounts.map((routes) => {
    const own = runs.filter((r) => r.routes === routes)
    const programs = Object.fromEntries(
      Object.keys(PROGRAMS)
        .filter((id) => !PROGRAMS[id].perRun)
        .map((id) => [id, medians(own.filter((r) => r.program === id))]),
    )
    const rounds = [...new Set(own.map((r) => r.round))]
    const of = (key, id, round) => own.find((r) => r.program === id && r.round === round)?.[key]
    const wall = (id, round) => of('wallMs', id, round)
    const honoOverFw = median(rounds.map((round) => wall('hono-client', round) / wall('fw-client', round)))
    const added = (key) => median(rounds.map((round) => of(key, 'starter-client', round) - of(key, 'starter', round)))
    // A busy machine only ever adds time: each program's fastest run is the nearest to a quiet machine's.
    const fastest = (id) => Math.min(...rounds.map((round) => wall(id, round)))
    const clientAdded = {
      wallMs: added('wallMs'),
      fastestWallMs: fastest('starter-client') - fastest('starter'),
      cpuMs: added('cpuMs'),
      checkMs: added('checkMs'),
      memoryKB: added('memoryKB'),
    }
    const made = generation.filter((g) => g.routes === routes)
    const generated = Object.fromEntries(['fwTypesMs', 'routesMs', 'documentMs', 'typesMs', 'bytes'].map((key) => [key, median(made.map((g) => g[key]))]))
    return { routes, programs, honoClientOverFwClient: honoOverFw, clientAddedToStarter: clientAdded, generation: generated }
  })
  return { baseline, byRoutes }
}

const seconds = (ms) => (ms == null ? '–' : (ms / 1000).toFixed(2))
const mb = (kb) => (kb == null ? '–' : Math.round(kb / 1024).toLocaleString('en-US'))

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i < 2 ? '---' : '--:')).join('|')}|`]
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`)
  return lines.join('\n')
}

/** The results as Markdown: tsc per program and route count, what the client adds to the starter, then the generation of .fw/api.d.ts. */
function format(summary, opts) {
  const rows = []
  for (const { routes, programs } of summary.byRoutes) {
    for (const [id, m] of Object.entries(programs)) {
      rows.push([String(routes), PROGRAMS[id].label, seconds(m.wallMs), seconds(m.cpuMs), seconds(m.checkMs), mb(m.memoryKB), m.types?.toLocaleString('en-US') ?? '–', m.instantiations?.toLocaleString('en-US') ?? '–'])
    }
  }
  const b = summary.baseline
  rows.push(['–', PROGRAMS.baseline.label, seconds(b.wallMs), seconds(b.cpuMs), seconds(b.checkMs), mb(b.memoryKB), b.types?.toLocaleString('en-US') ?? '–', b.instantiations?.toLocaleString('en-US') ?? '–'])
  const rounds = `median of ${opts.rounds} round${opts.rounds === 1 ? '' : 's'}`
  const tsc = table(['routes', `tsc --noEmit -p (${rounds})`, 'wall s', 'CPU s', 'check s', 'memory MB', 'types', 'instantiations'], rows)
  const ratios = summary.byRoutes.map(({ routes, honoClientOverFwClient }) => `${routes} routes: ${honoClientOverFwClient?.toFixed(1) ?? '–'}×`).join(', ')
  const added = table(
    ['routes', `added by the client to the starter's tsc (median of the rounds' differences)`, 'wall s', 'wall s, fastest runs', 'CPU s', 'check s', 'memory MB', `wall within ${seconds(CLIENT_BUDGET_MS)} s`],
    summary.byRoutes.map(({ routes, clientAddedToStarter: a }) => [
      String(routes),
      'starter + client.ts − starter',
      seconds(a.wallMs),
      seconds(a.fastestWallMs),
      seconds(a.cpuMs),
      seconds(a.checkMs),
      mb(a.memoryKB),
      a.wallMs <= CLIENT_BUDGET_MS ? 'yes' : 'NO',
    ]),
  )
  const generation = table(
    ['routes', `.fw/api.d.ts (${rounds})`, 'fw types s', 'routes loaded ms', 'document ms', 'openapi-typescript ms', 'api.d.ts KB'],
    summary.byRoutes.map(({ routes, generation: g }) => [String(routes), 'generated', seconds(g.fwTypesMs), String(Math.round(g.routesMs)), String(Math.round(g.documentMs)), String(Math.round(g.typesMs)), String(Math.round(g.bytes / 1024))]),
  )
  return [`**Type-check cost, ${CALLS} typed calls per client**`, '', tsc, '', `Hono client ÷ Fw client, wall time, median of the rounds' ratios: ${ratios}`, '', added, '', generation].join('\n')
}
