import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { measure } from './harness.mjs'
import { measurePairs } from './paired.mjs'
import { startRedis } from './redis.mjs'
import { formatPairs, summarize, summarizePairs } from './report.mjs'

/** The one case of the cache suite: every server answers it with the same body. */
export const CACHE_CASE = {
  label: 'GET /cached',
  method: 'GET',
  path: '/cached',
  status: 200,
  body: '{"greeting":"Hello, World!"}',
}

/** The server every req/s and CPU ratio of the tables is taken against: Fw's same route returning a constant. */
const BASELINE = 'fw-constant'

/**
 * The paired comparisons (b ÷ a) the run's servers allow: each Fw store against Fw's same route returning the constant,
 * Fw on Redis against fastify + ioredis, and Fw on memory against fastify + bentocache's memory store. `target` is the
 * issue's bar where it sets one (issue 40); the others are measured and reported with none.
 */
export function cacheComparisons(servers) {
  const byId = (id) => servers.find((server) => server.id === id)
  const list = []
  const pair = (b, a, target) => {
    const [subject, reference] = [byId(b), byId(a)]
    if (!subject || !reference) return
    const label = `${subject.label} ÷ ${reference.label}, ${CACHE_CASE.label}${target ? '' : ' (no target)'}`
    list.push({ key: `${b}/${a}`, caseName: 'cached', testCase: CACHE_CASE, label, target, a: { server: reference, routes: 0 }, b: { server: subject, routes: 0 } })
  }
  pair('fw-memory', BASELINE, 0.95)
  pair('fw-database', BASELINE)
  pair('fw-redis', BASELINE)
  pair('fw-redis', 'fastify-ioredis', 0.9)
  pair('fw-memory', 'fastify-bentocache')
  return list
}

const ratio = (value, base) => (value != null && base ? value / base : null)

/**
 * The targets: each paired comparison that has one, judged on its paired median (the ratio of the servers measured one
 * after another beside it, as `alone`); and no error, non-2xx or wrong answer from any Fw server.
 */
export function cacheTargets(summary, pairs, comparisons, pairedFailures = []) {
  const list = []
  for (const comparison of comparisons.filter((entry) => entry.target)) {
    const [b, a] = comparison.key.split('/')
    const alone = ratio(summary[b]?.cases.cached?.rps, summary[a]?.cases.cached?.rps)
    const paired = pairs.find((entry) => entry.key === comparison.key)?.ratio ?? null
    const value = paired ?? alone
    const target = comparison.target
    list.push({ name: comparison.label, value, method: paired == null ? 'alone' : 'paired', alone, target: `>= ${target.toFixed(2)}`, met: value == null ? null : value >= target })
  }
  const fw = Object.entries(summary).filter(([id]) => id.startsWith('fw'))
  const measured = fw.filter(([, entry]) => entry.cases.cached)
  const problems = measured.reduce((sum, [, entry]) => sum + entry.cases.cached.errors + entry.cases.cached.non2xx + entry.cases.cached.mismatches, 0)
  list.push({ name: 'Fw errors, non-2xx and wrong answers under load', value: measured.length ? problems : null, target: '0', met: measured.length ? problems === 0 : null })
  // A paired round's errors are not in the summary: each one with any is a failure of its own (paired.mjs).
  const failed = pairedFailures.filter((failure) => failure.server.startsWith('fw')).length
  if (pairs.length) list.push({ name: 'Fw paired rounds with errors, non-2xx or wrong answers', value: failed, target: '0', met: failed === 0 })
  return list
}

const int = (value) => (value == null ? '–' : Math.round(value).toLocaleString('en-US'))
const times = (value) => (value == null ? '–' : `${value.toFixed(2)}×`)
const ms = (value) => (value == null ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(1))

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`]
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`)
  return lines.join('\n')
}

/** The servers measured one after another, as Markdown: req/s, p99 and CPU a request, each against Fw's constant. */
export function formatCacheTables(summary, servers) {
  const rows = servers
    .filter((server) => summary[server.id]?.cases.cached)
    .map((server) => {
      const c = summary[server.id].cases.cached
      return [server.label, int(c.rps), times(c.rpsRatio), ms(c.p99Ms), ms(c.cpuUsPerRequest), times(c.cpuRatio), int(c.errors), int(c.non2xx), int(c.mismatches)]
    })
  const header = ['server', 'req/s', '× Fw constant', 'p99 ms', 'CPU µs/req', '× Fw constant', 'errors', 'non-2xx', 'wrong answers']
  const memory = servers
    .filter((server) => summary[server.id])
    .map((server) => [server.label, ms(summary[server.id].coldStartMs['0']), summary[server.id].rssBytes['0'] ? (summary[server.id].rssBytes['0'] / 2 ** 20).toFixed(1) : '–'])
  return [`**${CACHE_CASE.label}**, measured one after another\n\n${table(header, rows)}`, `**Start and memory**\n\n${table(['server', 'cold start ms', 'RSS after load MB'], memory)}`].join('\n\n')
}

/**
 * `npm run bench -- --suite cache`: a Redis this run starts and stops (and a SQLite file for the database store), every
 * server measured on `GET /cached` one after another in rounds, every answer checked; then the paired comparisons.
 * Resolves to what run.mjs prints and stores.
 */
export async function runCacheSuite(opts, { tool, pin, log }) {
  const failures = []
  const redis = opts.servers.some((server) => server.store === 'redis') ? await startRedis({ wrap: pin.wrap, log }) : null
  const folder = opts.servers.some((server) => server.store === 'database') ? mkdtempSync('/tmp/fw-bench-cache-') : null
  // An interrupted run exits from its signal handler: the SQLite file goes then too.
  const removeFolder = () => folder && rmSync(folder, { recursive: true, force: true })
  process.once('exit', removeFolder)
  try {
    const servers = opts.servers.map((server) => {
      const env = { ...server.env }
      if (server.store === 'redis') env.REDIS_URL = redis.url
      if (server.store === 'database') env.DATABASE_URL = `sqlite:${join(folder, 'cache.sqlite')}`
      return { ...server, env }
    })
    const plan = [{ routes: 0, cases: ['cached'] }]
    const run = await measure({ ...opts, servers, caseNames: ['cached'], plan, cases: { cached: CACHE_CASE }, check: true, tool, pin, log })
    // Any failure of Fw's is fatal, as the default suite's `fw` (finish() in run.mjs knows that id only).
    failures.push(...run.failures.map((failure) => (failure.server.startsWith('fw') ? { ...failure, fatal: true } : failure)))
    const summary = summarize(run.samples, servers, BASELINE)

    const comparisons = opts.pairedRounds > 0 ? cacheComparisons(servers) : []
    if (comparisons.length > 0 && !pin.pinned) log('Paired measurement skipped: it needs the servers and the load pinned to separate cores.')
    let paired = []
    const pairedFailures = []
    if (comparisons.length > 0 && pin.pinned) {
      log(`Paired: ${comparisons.length} comparison(s), ${opts.pairedRounds} round(s) of ${opts.duration} s`)
      const measured = await measurePairs({ ...opts, pairs: comparisons, rounds: opts.pairedRounds, check: true, tool, pin, log })
      failures.push(...measured.failures)
      pairedFailures.push(...measured.failures)
      paired = summarizePairs(measured.samples, comparisons).map((entry, i) => ({ ...entry, target: comparisons[i].target ?? null }))
    }
    const load = tool.name === 'wrk' ? `wrk -c${Math.max(1, Math.floor(opts.connections / 2))}` : 'autocannon'
    const tables = [formatCacheTables(summary, servers), ...(paired.length ? [formatPairs(paired, load)] : [])].join('\n\n')
    return {
      summary,
      paired,
      goals: cacheTargets(summary, paired, cacheComparisons(servers), pairedFailures),
      failures,
      loadAverage: run.loadAverage,
      tables,
      stores: { redis: redis?.version ?? null, database: folder ? 'sqlite' : null, pinned: pin.pinned ? pin.loadCpu : false },
    }
  } finally {
    await redis?.stop()
    process.off('exit', removeFolder)
    removeFolder()
  }
}
