#!/usr/bin/env node
// `npm run bench:profile`: what one request costs each server of the db suite, in CPU µs, bytes allocated and GC,
// with a CPU profile and a sampling heap profile of the measured window summarized by category and function.
// See bench/README.md ("Profiling a database route").
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { startPostgres, stopDatabases } from './lib/database.mjs'
import { DB_CASES } from './lib/db-cases.mjs'
import { runLoad } from './lib/load.mjs'
import { summarizeCpuProfile, summarizeHeapProfile } from './lib/profile-summary.mjs'
import { fetchOnce, freePort } from './lib/server-process.mjs'
import { dbServerList } from './lib/servers.mjs'
import { BENCH_DIR, BenchError, ensurePeers, ensureRuntimeBuilt, loadTool, pinning } from './lib/setup.mjs'

const USAGE = `Usage: npm run bench:profile -- [options]

  --servers a,b      db suite servers (default fw,fastify-pg,fastify-kysely)
  --add id=FILE      also profile another server file (same routes; PORT and DATABASE_URL from the env)
  --cases a,b        db suite test types (default db,fortunes)
  --duration S       seconds of measured load (default 5), after --warmup S (default 2)
  --connections N    wrk connections (default 32)
  --pool N           pg pool size of every server (default 10)
  --no-profiles      only the counts (CPU, allocation, GC): no profiler running in the window
  --top N            functions listed per profile (default 15)
  --out DIR          where the .cpuprofile and .heapprofile files go (default /tmp/fw-profile-<time>)`

const { values: opts } = parseArgs({
  options: {
    servers: { type: 'string', default: 'fw,fastify-pg,fastify-kysely' },
    add: { type: 'string', multiple: true },
    cases: { type: 'string', default: 'db,fortunes' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    pool: { type: 'string', default: '10' },
    'no-profiles': { type: 'boolean', default: false },
    top: { type: 'string', default: '15' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
})
if (opts.help) {
  console.log(USAGE)
  process.exit(0)
}

const log = (message) => console.error(`[profile] ${message}`)
const all = dbServerList()
const servers = opts.servers.split(',').map((id) => all.find((server) => server.id === id) ?? fail(`unknown server "${id}"`))
for (const spec of opts.add ?? []) {
  const [id, file] = spec.split('=')
  if (!id || !file) fail(`--add takes id=path/to/server.mjs, got "${spec}"`)
  servers.push({ id, file: resolve(file), readyPath: '/json' })
}
const caseNames = opts.cases.split(',')
for (const name of caseNames) if (!DB_CASES[name]) fail(`unknown case "${name}"`)
const outDir = resolve(opts.out ?? `/tmp/fw-profile-${Date.now()}`)
mkdirSync(outDir, { recursive: true })
const profiles = !opts['no-profiles']

function fail(message) {
  console.error(`bench:profile: ${message}`)
  process.exit(1)
}

/** Starts a server with the probe preloaded and an IPC channel to it; resolves once it answers. */
async function startProbed(server, { wrap, url }) {
  const port = await freePort()
  const env = { ...process.env, ...server.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', APP_DEBUG: 'false', DATABASE_URL: url, DB_POOL_MAX: opts.pool }
  const [command, args] = wrap(process.execPath, ['--import', join(BENCH_DIR, 'lib', 'probe.mjs'), resolve(BENCH_DIR, server.file)], 'server')
  const child = spawn(command, args, { cwd: BENCH_DIR, env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const replies = []
  let waiting = null
  child.on('message', (message) => {
    if (waiting) waiting(message)
    else replies.push(message)
  })
  const ask = (message) => {
    child.send(message)
    return new Promise((resolve) => {
      if (replies.length) resolve(replies.shift())
      else waiting = (reply) => ((waiting = null), resolve(reply))
    })
  }
  for (let tries = 0; tries < 300; tries++) {
    if ((await fetchOnce(port, { method: 'GET', path: server.readyPath })).status === 200) return { port, child, ask }
    await sleep(100)
  }
  child.kill('SIGKILL')
  throw new BenchError(`${server.id} did not start`)
}

const fmt = (n, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

async function main() {
  ensurePeers(log)
  ensureRuntimeBuilt(log)
  const tool = loadTool('wrk')
  if (tool.name !== 'wrk') throw new BenchError('bench:profile needs wrk')
  const pin = pinning(true)
  const postgres = await startPostgres({ wrap: pin.wrap, log, trackPlanning: true })
  const rows = []
  const details = []
  try {
    for (const name of caseNames) {
      const testCase = DB_CASES[name]
      for (const server of servers) {
        const handle = await startProbed(server, { wrap: pin.wrap, url: postgres.url })
        try {
          const load = (duration) => runLoad(tool, { port: handle.port, testCase, duration, connections: Number(opts.connections), check: true, wrap: pin.wrap })
          await load(Number(opts.warmup))
          for (const [pass, profile] of [['counts', false], ...(profiles ? [['profiles', true]] : [])]) {
            await sleep(300)
            await postgres.window.start()
            await handle.ask({ probe: 'start', cpuProfile: profile, heapProfile: profile })
            const result = await load(Number(opts.duration))
            const prefix = join(outDir, `${server.id}-${name}`)
            const { result: probe } = await handle.ask({ probe: 'stop', prefix })
            const pg = await postgres.window.stop()
            if (result.non2xx || result.errors || result.mismatches) throw new BenchError(`${server.id} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.mismatches} wrong answers`)
            const n = result.requests
            if (pass === 'counts') {
              rows.push({
                test: name,
                server: server.id,
                requests: n,
                rps: result.rps,
                cpuUs: (probe.userUs + probe.systemUs) / n,
                userUs: probe.userUs / n,
                bytes: probe.allocatedBytes / n,
                gcUs: probe.gcUs / n,
                scavenges: probe.collections.scavenge,
                majors: probe.collections.other,
                pgCpuUs: pg.cpuUs / n,
                statements: pg.statements / n,
                plans: pg.plans / n,
                planUs: pg.planUs / n,
                execUs: pg.execUs / n,
                top: pg.top,
              })
            } else {
              details.push({ test: name, server: server.id, cpu: summarizeCpuProfile(probe.files.cpu, n), heap: summarizeHeapProfile(probe.files.heap, n), files: probe.files })
            }
          }
        } finally {
          handle.child.kill('SIGTERM')
        }
        await sleep(500)
      }
    }
  } finally {
    await postgres.stop()
  }

  console.log(`Load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}; wrk -c${opts.connections}, ${opts.duration} s measured, pool ${opts.pool}\n`)
  console.log('| test | server | req/s | CPU µs/req | user µs/req | allocated bytes/req | GC µs/req | scavenges | mark-compacts |')
  console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|')
  for (const row of rows) {
    console.log(`| ${row.test} | ${row.server} | ${fmt(row.rps, 0)} | ${fmt(row.cpuUs)} | ${fmt(row.userUs)} | ${fmt(row.bytes, 0)} | ${fmt(row.gcUs, 2)} | ${row.scavenges} | ${row.majors} |`)
  }
  // PostgreSQL's side of the same windows: its processes' CPU time (all of the cluster's), and pg_stat_statements.
  console.log('\nPostgreSQL, per request (its CPU time; statements run, plans made, and their planning and execution time):\n')
  console.log('| test | server | PG CPU µs/req | statements/req | plans/req | plan µs/req | exec µs/req |')
  console.log('|---|---|--:|--:|--:|--:|--:|')
  for (const row of rows) {
    console.log(`| ${row.test} | ${row.server} | ${fmt(row.pgCpuUs)} | ${fmt(row.statements, 2)} | ${fmt(row.plans, 2)} | ${fmt(row.planUs, 1)} | ${fmt(row.execUs, 1)} |`)
  }
  for (const row of rows) {
    console.log(`\n${row.server}, ${row.test}: statements by calls`)
    for (const top of row.top) console.log(`  ${String(top.calls).padStart(8)} calls ${String(top.plans).padStart(8)} plans  ${top.query.replace(/\s+/g, ' ').slice(0, 110)}`)
  }
  const top = Number(opts.top)
  for (const detail of details) {
    console.log(`\n### ${detail.server}, ${detail.test} (profiled; ${detail.files.cpu})\n`)
    console.log('CPU self time by category, µs/request:')
    for (const [category, us] of detail.cpu.categories) if (us >= 0.05) console.log(`  ${fmt(us, 2).padStart(8)}  ${category}`)
    console.log('Functions by self time, µs/request:')
    for (const [fn, us] of detail.cpu.functions.slice(0, top)) console.log(`  ${fmt(us, 2).padStart(8)}  ${fn}`)
    console.log(`Allocations sampled: ${fmt(detail.heap.totalPerRequest, 0)} bytes/request; by function:`)
    for (const [fn, bytes] of detail.heap.functions.slice(0, top)) console.log(`  ${fmt(bytes, 0).padStart(8)}  ${fn}`)
  }
}

process.on('SIGINT', () => {
  stopDatabases()
  process.exit(130)
})
main().catch((error) => {
  stopDatabases()
  console.error(`bench:profile: ${error instanceof BenchError ? error.message : error.stack}`)
  process.exit(1)
})
