#!/usr/bin/env node
// `npm run bench`: Fw against its peers, side by side in one run. See bench/README.md.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CASES, ROUTE_COUNTS } from './lib/cases.mjs'
import { measure } from './lib/harness.mjs'
import { comparisons, measurePairs } from './lib/paired.mjs'
import { formatPairs, formatTables, formatTargets, summarize, summarizePairs, targets } from './lib/report.mjs'
import { stopAll } from './lib/server-process.mjs'
import { serverList } from './lib/servers.mjs'
import { BENCH_DIR, BenchError, ensurePeers, ensureRuntimeBuilt, gitRevision, loadTool, pinning } from './lib/setup.mjs'

const USAGE = `Usage: npm run bench -- [options]

  --smoke              a few seconds per server, every answer checked (what CI runs)
  --rounds N           interleaved rounds; medians are reported (default 3)
  --paired-rounds N    rounds of the paired measurement: Fw and polka@next (and Fw with the most and the
                       fewest routes) loaded at once on one core (default 5, smoke 1; 0 skips it)
  --duration S         seconds of measured load per case and round (default 5)
  --warmup S           seconds of unmeasured load before each case (default 1)
  --connections N      connections held open by the load generator (default 64)
  --servers a,b        only these servers (fw, polka-next, node-http, polka-0.5, fastify, hono, express;
                       fw-node runs Fw on node:http and is only run when named)
  --cases a,b          only these cases (hello, user, echo, routes)
  --routes 10,100      route counts for the routes case (default 10,100,1000,10000)
  --add id=FILE        also measure another server file (same routes, PORT and BENCH_ROUTES from the env)
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
        smoke: { type: 'boolean', default: false },
        rounds: { type: 'string' },
        'paired-rounds': { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        servers: { type: 'string' },
        cases: { type: 'string' },
        routes: { type: 'string' },
        add: { type: 'string', multiple: true },
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
  const all = serverList()
  const wanted = list('servers')
  for (const id of wanted ?? []) if (!all.some((server) => server.id === id)) fail(`unknown server "${id}"; known: ${all.map((s) => s.id).join(', ')}`)
  const servers = wanted ? all.filter((server) => wanted.includes(server.id)) : all.filter((server) => !server.optional)
  for (const spec of values.add ?? []) {
    const [id, file] = spec.split(/=(.*)/s)
    if (!id || !file) fail(`--add takes id=path/to/server.mjs, got "${spec}"`)
    if (!existsSync(file)) fail(`--add ${id}: no such file ${file}`)
    servers.push({ id, label: id, file: resolve(file) })
  }
  const caseNames = list('cases') ?? ['hello', 'user', 'echo', 'routes']
  for (const name of caseNames) if (name !== 'routes' && !CASES[name]) fail(`unknown case "${name}"; known: hello, user, echo, routes`)
  const routeCounts = list('routes')?.map((n) => {
    const count = Number(n)
    if (!Number.isInteger(count) || count < 1) fail(`--routes takes whole numbers of at least 1, got "${n}"`)
    return count
  }) ?? (smoke ? [10, 1000] : ROUTE_COUNTS)
  if (values.tool && !['wrk', 'autocannon'].includes(values.tool)) fail(`--tool is wrk or autocannon, got "${values.tool}"`)
  return {
    smoke,
    servers,
    caseNames,
    routeCounts,
    rounds: number('rounds', smoke ? 1 : 3, 1),
    pairedRounds: number('paired-rounds', smoke ? 1 : 5, 0),
    duration: number('duration', smoke ? 1 : 5, 1),
    warmup: number('warmup', smoke ? 0 : 1, 0),
    connections: number('connections', smoke ? 16 : 64, 1),
    tool: values.tool,
    pin: !values['no-pin'],
    out: values.out ? resolve(values.out) : smoke ? null : join(BENCH_DIR, 'results', `${new Date().toISOString().slice(0, 10)}.json`),
  }
}

async function main() {
  const opts = options()
  const log = (line) => console.error(line)
  // Interrupted (Ctrl-C, a CI time limit), the run stops the servers it started before it exits.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.once(signal, () => {
      console.error(`bench: interrupted (${signal}); stopping the servers it started`)
      void stopAll().finally(() => process.exit(code))
    })
  }
  ensurePeers(log)
  ensureRuntimeBuilt(log)
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

  const { samples, failures, loadAverage } = await measure({ ...opts, check: opts.smoke, tool, pin, log })
  const summary = summarize(samples, opts.servers, baseline)

  // The paired comparisons need both servers on one core and the load on the other.
  const pairs = opts.pairedRounds > 0 ? comparisons({ ...opts, baseline }) : []
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
      tool: `${tool.name} ${tool.version}`,
      threads: tool.name === 'wrk' ? 1 : undefined,
      connections: opts.connections,
      rounds: opts.rounds,
      pairedRounds: pin.pinned ? opts.pairedRounds : 0,
      durationSeconds: opts.duration,
      warmupSeconds: opts.warmup,
      pinned: pin.pinned ? { server: pin.serverCpu, load: pin.loadCpu } : false,
      routeCounts: opts.routeCounts,
      nodeEnv: 'production',
    },
    baseline,
    cases: Object.fromEntries(Object.entries(CASES).filter(([name]) => opts.caseNames.includes(name) || name === 'user')),
    servers: summary,
    paired,
    targets: goals,
    failures: failures.map((f) => f.message),
    tables,
  }
  if (opts.out) {
    mkdirSync(dirname(opts.out), { recursive: true })
    writeFileSync(`${opts.out}.tmp`, `${JSON.stringify(result, null, 2)}\n`)
    renameSync(`${opts.out}.tmp`, opts.out)
    log(`Results written to ${opts.out}`)
  }
  // In smoke mode every failure fails the run. In a full run a peer that breaks down (hono with 10,000
  // routes) is a finding, reported and kept in the JSON; only Fw failing, a server that cannot start, or a paired
  // round (its ratio judges a target) fails it.
  const fatal = failures.filter((f) => opts.smoke || f.fatal || f.server === 'fw' || f.message.includes('failed to start') || / exited /.test(f.message))
  for (const f of failures) console.error(`${fatal.includes(f) ? 'bench' : 'note'}: ${f.message}`)
  if (fatal.length > 0) fail(`${fatal.length} failure(s): see above`)
}

main().catch((error) => fail(error instanceof BenchError ? error.message : error.stack ?? String(error)))
