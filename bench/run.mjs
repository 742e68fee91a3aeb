#!/usr/bin/env node
// `npm run bench`: Fw against its peers, side by side in one run. See bench/README.md.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CASES, ROUTE_COUNTS } from './lib/cases.mjs'
import { stopDatabases } from './lib/database.mjs'
import { DB_CASES } from './lib/db-cases.mjs'
import { runDbSuite } from './lib/db-suite.mjs'
import { runCacheSuite } from './lib/cache-suite.mjs'
import { stopRedisServers } from './lib/redis.mjs'
import { QUEUE_PARTICIPANTS, runQueueSuite } from './lib/queue-suite.mjs'
import { runTypesSuite } from './lib/types-suite.mjs'
import { measure } from './lib/harness.mjs'
import { comparisons, measurePairs } from './lib/paired.mjs'
import { formatPairs, formatTables, formatTargets, summarize, summarizePairs, targets } from './lib/report.mjs'
import { stopAll } from './lib/server-process.mjs'
import { cacheServerList, dbServerList, serverList } from './lib/servers.mjs'
import { BENCH_DIR, BenchError, ensurePeers, ensureRuntimeBuilt, gitRevision, loadTool, pinning } from './lib/setup.mjs'

const USAGE = `Usage: npm run bench -- [options]

  --suite default|db|queue|types|cache
                       default: routing and JSON, no database. db: TechEmpower's test types (json,
                       plaintext, db, queries1, queries20, updates20, fortunes) against a PostgreSQL 15
                       the run starts and stops, Fw also on SQLite, every answer checked (bench/README.md).
                       queue: Fw's job queue on PostgreSQL and SQLite, and pg-boss used directly: jobs/s
                       dispatched and drained, and the delay from dispatch to start. types: tsc's time
                       over a typed client of N routes, Fw's (fw types, createClient) and Hono's (hc),
                       what Fw's adds to the starter's tsc, and the time of writing .fw/api.d.ts.
                       cache: GET /cached through Fw's cache().remember on the memory, database (SQLite)
                       and Redis stores (a Redis the run starts and stops), paired against Fw returning
                       the constant and against fastify with ioredis and with bentocache used directly
  --jobs N             queue suite: jobs dispatched, then drained, per run (default 10000, smoke 300)
  --workers 1,4        queue suite: worker processes draining them, one run per count (default 1,4; smoke 1)
  --smoke              a few seconds per server, every answer checked (what CI runs)
  --rounds N           interleaved rounds; medians are reported (default 3; db suite 2)
  --paired-rounds N    rounds of the paired measurement: Fw and polka@next (and Fw with the most and the
                       fewest routes; db suite: Fw and the fastest peer on pg) loaded at once on one core
                       (default 5, db suite 3, smoke 1; 0 skips it)
  --duration S         seconds of measured load per case and round (default 5)
  --warmup S           seconds of unmeasured load before each case (default 1)
  --connections N      connections held open by the load generator (default 64)
  --servers a,b        only these servers (fw, polka-next, node-http, polka-0.5, fastify, hono, express;
                       fw-node runs Fw on node:http and is only run when named; db suite: fw, fw-sqlite,
                       node-http-pg, fastify-pg, fastify-kysely, hono-pg, express-pg; queue suite:
                       fw-pg, pgboss, fw-sqlite; cache suite: fw-constant, fw-memory, fw-database,
                       fw-redis, fastify-ioredis, fastify-bentocache)
  --cases a,b          only these cases (hello, user, echo, routes; db suite: its test types)
  --pool N             db suite: connections in every server's pg pool (default 10)
  --routes 10,100      route counts for the routes case (default 10,100,1000,10000; types suite: the
                       routes of each app, default 100,200,400, smoke 10)
  --keep               types suite: leave the generated apps in their folder under the system's temporary one
  --add id=FILE        also measure another server file (same routes, PORT and BENCH_ROUTES from the env)
  --paired-with a,b    also pair Fw with these servers (of --servers or --add) on GET /hello and
                       GET /users/:id: Fw against an earlier build of itself (bench/README.md)
  --tool wrk|autocannon  the load generator (default: wrk when installed)
  --no-pin             do not pin the server and the load generator to separate cores
  --out FILE           where the JSON goes (default bench/results/<date>.json; smoke mode writes only with --out)`

function fail(message) {
  console.error(`bench: ${message}`)
  process.exit(1)
}

function options() {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        suite: { type: 'string', default: 'default' },
        smoke: { type: 'boolean', default: false },
        pool: { type: 'string' },
        jobs: { type: 'string' },
        workers: { type: 'string' },
        rounds: { type: 'string' },
        'paired-rounds': { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        servers: { type: 'string' },
        cases: { type: 'string' },
        routes: { type: 'string' },
        add: { type: 'string', multiple: true },
        'paired-with': { type: 'string' },
        keep: { type: 'boolean', default: false },
        tool: { type: 'string' },
        'no-pin': { type: 'boolean', default: false },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }))
  } catch (error) {
    fail(`${error.message} (see --help)`)
  }
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const number = (name, fallback, min) => {
    if (values[name] === undefined) return fallback
    const value = Number(values[name])
    if (!Number.isFinite(value) || value < min) fail(`--${name} must be a number of at least ${min}, got "${values[name]}"`)
    return value
  }
  const list = (name) => values[name]?.split(',').map((item) => item.trim()).filter(Boolean)
  const smoke = values.smoke
  if (!['default', 'db', 'queue', 'types', 'cache'].includes(values.suite)) fail(`--suite is default, db, queue, types or cache, got "${values.suite}"`)
  if (values.suite === 'queue') return queueOptions(values, { number, list, smoke })
  if (values.suite === 'cache') return cacheOptions(values, { number, list, smoke })
  if (values.suite === 'types') return typesOptions(values, { number, list, smoke })
  const db = values.suite === 'db'
  const all = db ? dbServerList() : serverList()
  const wanted = list('servers')
  for (const id of wanted ?? []) if (!all.some((server) => server.id === id)) fail(`unknown server "${id}"; known: ${all.map((s) => s.id).join(', ')}`)
  const servers = wanted ? all.filter((server) => wanted.includes(server.id)) : all.filter((server) => !server.optional)
  for (const spec of values.add ?? []) {
    const [id, file] = spec.split(/=(.*)/s)
    if (!id || !file) fail(`--add takes id=path/to/server.mjs, got "${spec}"`)
    if (!existsSync(file)) fail(`--add ${id}: no such file ${file}`)
    servers.push({ id, label: id, file: resolve(file), added: true, ...(db ? { driver: 'pg', readyPath: '/json' } : {}) })
  }
  const pairedWith = list('paired-with') ?? []
  for (const id of pairedWith) if (!servers.some((server) => server.id === id)) fail(`--paired-with ${id}: not one of the servers measured (${servers.map((s) => s.id).join(', ')})`)
  if (db && pairedWith.length) fail('--paired-with is for the default suite')
  const known = db ? Object.keys(DB_CASES) : ['hello', 'user', 'echo', 'routes']
  // A case only some servers answer (the db suite's `world`) runs when named.
  const caseNames = list('cases') ?? known.filter((name) => !(db && DB_CASES[name].optional))
  for (const name of caseNames) if (!known.includes(name)) fail(`unknown case "${name}"; known: ${known.join(', ')}`)
  const routeCounts = list('routes')?.map((n) => {
    const count = Number(n)
    if (!Number.isInteger(count) || count < 1) fail(`--routes takes whole numbers of at least 1, got "${n}"`)
    return count
  }) ?? (smoke ? [10, 1000] : ROUTE_COUNTS)
  if (values.tool && !['wrk', 'autocannon'].includes(values.tool)) fail(`--tool is wrk or autocannon, got "${values.tool}"`)
  return {
    suite: values.suite,
    smoke,
    servers,
    pairedWith,
    caseNames,
    routeCounts: db ? [] : routeCounts,
    poolMax: number('pool', 10, 1),
    rounds: number('rounds', smoke ? 1 : db ? 2 : 3, 1),
    pairedRounds: number('paired-rounds', smoke ? 1 : db ? 3 : 5, 0),
    duration: number('duration', smoke ? 1 : 5, 1),
    warmup: number('warmup', smoke ? 0 : 1, 0),
    connections: number('connections', smoke ? 16 : 64, 1),
    tool: values.tool,
    pin: !values['no-pin'],
    out: values.out ? resolve(values.out) : smoke ? null : join(BENCH_DIR, 'results', `${new Date().toISOString().slice(0, 10)}${db ? '-db' : ''}.json`),
  }
}

/** `--suite queue`: its own options (participants, jobs, worker counts, rounds). */
function queueOptions(values, { number, list, smoke }) {
  const known = Object.keys(QUEUE_PARTICIPANTS)
  const participants = list('servers') ?? known
  for (const id of participants) if (!known.includes(id)) fail(`unknown queue "${id}"; known: ${known.join(', ')}`)
  const workers = (list('workers') ?? (smoke ? ['1'] : ['1', '4'])).map((n) => {
    const count = Number(n)
    if (!Number.isInteger(count) || count < 1) fail(`--workers takes whole numbers of at least 1, got "${n}"`)
    return count
  })
  return {
    suite: 'queue',
    smoke,
    participants,
    workers,
    jobs: number('jobs', smoke ? 300 : 10_000, 1),
    pacedJobs: smoke ? 20 : 200,
    rate: smoke ? 50 : 100,
    rounds: number('rounds', smoke ? 1 : 3, 1),
    out: values.out ? resolve(values.out) : smoke ? null : join(BENCH_DIR, 'results', `${new Date().toISOString().slice(0, 10)}-queue.json`),
  }
}

/** `--suite cache`: its servers (no --add, no --cases: one case), rounds and load. */
function cacheOptions(values, { number, list, smoke }) {
  const all = cacheServerList()
  const wanted = list('servers')
  for (const id of wanted ?? []) if (!all.some((server) => server.id === id)) fail(`unknown server "${id}"; known: ${all.map((s) => s.id).join(', ')}`)
  for (const name of ['add', 'paired-with', 'cases']) if (values[name] !== undefined) fail(`--${name} is not for the cache suite (one case, GET /cached)`)
  if (values.tool && !['wrk', 'autocannon'].includes(values.tool)) fail(`--tool is wrk or autocannon, got "${values.tool}"`)
  return {
    suite: 'cache',
    smoke,
    servers: wanted ? all.filter((server) => wanted.includes(server.id)) : all,
    rounds: number('rounds', smoke ? 1 : 2, 1),
    pairedRounds: number('paired-rounds', smoke ? 1 : 5, 0),
    duration: number('duration', smoke ? 1 : 5, 1),
    warmup: number('warmup', smoke ? 0 : 1, 0),
    connections: number('connections', smoke ? 16 : 64, 1),
    tool: values.tool,
    pin: !values['no-pin'],
    out: values.out ? resolve(values.out) : smoke ? null : join(BENCH_DIR, 'results', `${new Date().toISOString().slice(0, 10)}-cache.json`),
  }
}

/** `--suite types`: route counts, rounds, and whether to keep the generated apps. */
function typesOptions(values, { number, list, smoke }) {
  const routeCounts = (list('routes') ?? (smoke ? ['10'] : ['100', '200', '400'])).map((n) => {
    const count = Number(n)
    if (!Number.isInteger(count) || count < 3) fail(`--routes takes whole numbers of at least 3 (an app needs a POST route), got "${n}"`)
    return count
  })
  return {
    suite: 'types',
    smoke,
    routeCounts,
    rounds: number('rounds', smoke ? 1 : 3, 1),
    keep: values.keep,
    out: values.out ? resolve(values.out) : smoke ? null : join(BENCH_DIR, 'results', `${new Date().toISOString().slice(0, 10)}-types.json`),
  }
}

/** `--suite types`: the apps written, tsc and fw types timed, the apps removed. */
async function typesMain(opts, log) {
  const loadBefore = loadavg()
  log(`Fw bench, types suite${opts.smoke ? ' (smoke)' : ''}: ${opts.routeCounts.join(', ')} routes, ${opts.rounds} round(s); load average ${loadBefore[0].toFixed(2)}`)
  const run = await runTypesSuite(opts, { log })
  console.log(`\n${run.tables}\n`)
  write(
    opts,
    {
      date: new Date().toISOString(),
      suite: 'types',
      mode: opts.smoke ? 'smoke' : 'full',
      revision: gitRevision(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: run.loadAverage },
      settings: { routeCounts: opts.routeCounts, rounds: opts.rounds, ...run.settings },
      verified: run.verified,
      summary: run.summary,
      runs: run.runs,
      generation: run.generation,
      tables: run.tables,
    },
    log,
  )
}

/** `--suite queue`: PostgreSQL started, the queues measured, PostgreSQL stopped. */
async function queueMain(opts, log) {
  const loadBefore = loadavg()
  log(`Fw bench, queue suite${opts.smoke ? ' (smoke)' : ''}: ${opts.participants.join(', ')}; ${opts.jobs} jobs, ${opts.workers.join(' and ')} worker(s), ${opts.rounds} round(s); load average ${loadBefore[0].toFixed(2)}`)
  const run = await runQueueSuite(opts, { log })
  console.log(`\n${run.tables}\n`)
  if (!opts.smoke) console.log(`Targets:\n${run.goals.map((goal) => `${goal.met ? 'met ' : 'MISSED'}  ${goal.what}: ${goal.value}`).join('\n')}\n`)
  write(
    opts,
    {
      date: new Date().toISOString(),
      suite: 'queue',
      mode: opts.smoke ? 'smoke' : 'full',
      revision: gitRevision(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: run.loadAverage },
      settings: { jobs: opts.jobs, workers: opts.workers, rounds: opts.rounds, pacedJobs: opts.pacedJobs, rate: opts.rate, pinned: false },
      runs: run.runs,
      summary: run.summary,
      paired: run.paired,
      targets: run.goals,
      tables: run.tables,
    },
    log,
  )
}

async function main() {
  const opts = options()
  const log = (line) => console.error(line)
  // Interrupted (Ctrl-C, a CI time limit), the run stops the servers it started before it exits.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.once(signal, () => {
      console.error(`bench: interrupted (${signal}); stopping the servers it started`)
      void stopAll()
        .then(stopDatabases)
        .then(stopRedisServers)
        // A server the run started while the first stopAll waited (the next of a pair) is stopped too.
        .then(stopAll)
        .finally(() => process.exit(code))
    })
  }
  ensurePeers(log)
  ensureRuntimeBuilt(log)
  if (opts.suite === 'queue') return queueMain(opts, log)
  if (opts.suite === 'types') return typesMain(opts, log)
  const tool = loadTool(opts.tool)
  const pin = pinning(opts.pin)
  const baseline = 'polka-next'
  const loadBefore = loadavg()
  log(
    `Fw bench${opts.smoke ? ' (smoke)' : ''}: ${opts.servers.length} servers, ${opts.rounds} round(s) of ${opts.duration} s ` +
      `(+${opts.warmup} s warm-up), ${tool.name} ${tool.version} with ${opts.connections} connections, ` +
      `${pin.pinned ? 'server on core 0, load on core 1' : 'not pinned'}; load average ${loadBefore[0].toFixed(2)}`,
  )
  if (loadBefore[0] > 0.5) log('Note: the machine is busy (load average above 0.5): absolute numbers will be noisy, ratios less so.')
  if (opts.suite === 'db') return dbMain(opts, { tool, pin, log, loadBefore })
  if (opts.suite === 'cache') return cacheMain(opts, { tool, pin, log, loadBefore })

  const { samples, failures, loadAverage } = await measure({ ...opts, check: opts.smoke, tool, pin, log })
  const summary = summarize(samples, opts.servers, baseline)

  // The paired comparisons need both servers on one core and the load on the other.
  const variants = serverList().filter((server) => ['fw-validate', 'fw-contract', 'fw-returns'].includes(server.id))
  const pairs = opts.pairedRounds > 0 ? comparisons({ ...opts, baseline, variants }) : []
  if (pairs.length > 0 && !pin.pinned) log('Paired measurement skipped: it needs the servers and the load pinned to separate cores.')
  let paired = []
  if (pairs.length > 0 && pin.pinned) {
    log(`Paired: ${pairs.length} comparison(s), ${opts.pairedRounds} round(s) of ${opts.duration} s`)
    const run = await measurePairs({ ...opts, pairs, rounds: opts.pairedRounds, check: opts.smoke, tool, pin, log })
    failures.push(...run.failures)
    paired = summarizePairs(run.samples, pairs)
  }
  const goals = targets(summary, opts.routeCounts, paired)
  const load = tool.name === 'wrk' ? `wrk -c${Math.max(1, Math.floor(opts.connections / 2))}` : 'autocannon'
  const tables = [formatTables(summary, opts.servers, opts.caseNames, opts.routeCounts), ...(paired.length ? [formatPairs(paired, load)] : [])].join('\n\n')

  console.log(`\n${tables}\n`)
  if (!opts.smoke && goals.length) console.log(`Targets:\n${formatTargets(goals)}\n`)

  const result = {
    date: new Date().toISOString(),
    mode: opts.smoke ? 'smoke' : 'full',
    revision: gitRevision(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage },
    settings: {
      ...settingsOf(opts, tool, pin),
      routeCounts: opts.routeCounts,
      added: Object.fromEntries(opts.servers.filter((server) => server.added).map((server) => [server.id, server.file])),
      pairedWith: opts.pairedWith,
    },
    baseline,
    cases: Object.fromEntries(Object.entries(CASES).filter(([name]) => opts.caseNames.includes(name) || name === 'user')),
    servers: summary,
    paired,
    targets: goals,
    failures: failures.map((f) => f.message),
    tables,
  }
  write(opts, result, log)
  finish(opts, failures)
}

/** The settings both suites store beside their results. */
function settingsOf(opts, tool, pin) {
  return {
    tool: `${tool.name} ${tool.version}`,
    threads: tool.name === 'wrk' ? 1 : undefined,
    connections: opts.connections,
    rounds: opts.rounds,
    pairedRounds: pin.pinned ? opts.pairedRounds : 0,
    durationSeconds: opts.duration,
    warmupSeconds: opts.warmup,
    pinned: pin.pinned ? { server: pin.serverCpu, load: pin.loadCpu } : false,
    nodeEnv: 'production',
  }
}

function write(opts, result, log) {
  if (!opts.out) return
  mkdirSync(dirname(opts.out), { recursive: true })
  writeFileSync(`${opts.out}.tmp`, `${JSON.stringify(result, null, 2)}\n`)
  renameSync(`${opts.out}.tmp`, opts.out)
  log(`Results written to ${opts.out}`)
}

/**
 * Exits 1 on a fatal failure. In smoke mode every failure is fatal. In a full run a peer that breaks down
 * (hono with 10,000 routes) is a finding, reported and kept in the JSON; only Fw failing, a server that cannot
 * start, a wrong answer in the db suite's verification, or a paired round (its ratio judges a target) fails it.
 */
function finish(opts, failures) {
  const fatal = failures.filter((f) => opts.smoke || f.fatal || f.server === 'fw' || f.server === 'fw-sqlite' || f.message.includes('failed to start') || / exited /.test(f.message))
  for (const f of failures) console.error(`${fatal.includes(f) ? 'bench' : 'note'}: ${f.message}`)
  if (fatal.length > 0) fail(`${fatal.length} failure(s): see above`)
}

/** `--suite db`: PostgreSQL started, TechEmpower's test types measured and checked, PostgreSQL stopped. */
async function dbMain(opts, { tool, pin, log, loadBefore }) {
  const run = await runDbSuite(opts, { tool, pin, log })
  console.log(`\n${run.tables}\n`)
  if (!opts.smoke && run.goals.length) console.log(`Targets:\n${formatTargets(run.goals)}\n`)
  const result = {
    date: new Date().toISOString(),
    suite: 'db',
    mode: opts.smoke ? 'smoke' : 'full',
    revision: gitRevision(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: run.loadAverage },
    settings: { ...settingsOf(opts, tool, pin), database: run.database },
    cases: Object.fromEntries(opts.caseNames.map((name) => [name, DB_CASES[name]])),
    fastestPeers: run.fastest,
    queriesPerAnswer: run.queries,
    servers: run.summary,
    paired: run.paired,
    targets: run.goals,
    failures: run.failures.map((f) => f.message),
    tables: run.tables,
  }
  write(opts, result, log)
  finish(opts, run.failures)
}

/** `--suite cache`: Redis started, GET /cached measured on every store and paired, Redis stopped. */
async function cacheMain(opts, { tool, pin, log, loadBefore }) {
  const run = await runCacheSuite(opts, { tool, pin, log })
  console.log(`\n${run.tables}\n`)
  if (!opts.smoke) console.log(`Targets:\n${formatTargets(run.goals)}\n`)
  const result = {
    date: new Date().toISOString(),
    suite: 'cache',
    mode: opts.smoke ? 'smoke' : 'full',
    revision: gitRevision(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: run.loadAverage },
    settings: { ...settingsOf(opts, tool, pin), stores: run.stores },
    baseline: 'fw-constant',
    servers: run.summary,
    paired: run.paired,
    targets: run.goals,
    failures: run.failures.map((f) => f.message),
    tables: run.tables,
  }
  write(opts, result, log)
  finish(opts, run.failures)
}

main().catch((error) => fail(error instanceof BenchError ? error.message : error.stack ?? String(error)))
