import { createSqlite, startPostgres } from './database.mjs'
import { DB_CASES } from './db-cases.mjs'
import { addPeerRatios, dbComparisons, dbTargets, fastestPeers, formatDbTables } from './db-report.mjs'
import { verifyServer } from './db-verify.mjs'
import { measure } from './harness.mjs'
import { measurePairs } from './paired.mjs'
import { formatPairs, summarize, summarizePairs } from './report.mjs'

/**
 * `npm run bench -- --suite db`: TechEmpower's test types against a PostgreSQL 15 this run starts and stops
 * (and Fw also on its embedded SQLite). First every server is verified as TechEmpower's verifier does
 * (db-verify.mjs); then the interleaved rounds, every response checked under load; then Fw paired with the
 * fastest peer on pg of each database test. Resolves to what run.mjs prints and stores.
 */
export async function runDbSuite(opts, { tool, pin, log }) {
  const failures = []
  const postgres = opts.servers.some((server) => server.driver === 'pg') ? await startPostgres({ wrap: pin.wrap, log }) : null
  const sqlite = opts.servers.some((server) => server.driver === 'sqlite') ? createSqlite() : null
  try {
    const pool = String(opts.poolMax)
    const servers = opts.servers.map((server) => {
      const database = server.driver === 'sqlite' ? sqlite : postgres
      return { ...server, env: { ...server.env, DATABASE_URL: database.url, DB_POOL_MAX: pool }, database }
    })

    log(`Verifying every server's answers as TechEmpower's verifier does`)
    const queries = {}
    for (const server of servers) {
      const { readWorld, countQueries } = server.database
      const verified = await verifyServer(server, { caseNames: opts.caseNames, wrap: pin.wrap, readWorld, countQueries })
      for (const message of verified.problems) failures.push({ server: server.id, message, fatal: true })
      for (const [name, count] of Object.entries(verified.queries)) {
        queries[name] = { ...queries[name], [server.id]: count }
        log(`${server.id}: GET ${DB_CASES[name].path} ran ${count} statement${count === 1 ? '' : 's'} on PostgreSQL`)
      }
    }

    const plan = [{ routes: 0, cases: opts.caseNames }]
    const run = await measure({ ...opts, servers, plan, cases: DB_CASES, check: true, tool, pin, log })
    failures.push(...run.failures)
    const summary = summarize(run.samples, servers, null)
    const fastest = fastestPeers(summary, servers, opts.caseNames)
    addPeerRatios(summary, servers, fastest)

    const pairs = opts.pairedRounds > 0 ? dbComparisons(servers, opts.caseNames, fastest) : []
    if (pairs.length > 0 && !pin.pinned) log('Paired measurement skipped: it needs the servers and the load pinned to separate cores.')
    let paired = []
    if (pairs.length > 0 && pin.pinned) {
      log(`Paired: ${pairs.length} comparison(s), ${opts.pairedRounds} round(s) of ${opts.duration} s`)
      const measured = await measurePairs({ ...opts, pairs, rounds: opts.pairedRounds, check: true, tool, pin, log })
      failures.push(...measured.failures)
      paired = summarizePairs(measured.samples, pairs).map((entry, i) => ({ ...entry, peer: pairs[i].peer, ...(pairs[i].reference ? { reference: true } : {}) }))
    }
    const load = tool.name === 'wrk' ? `wrk -c${Math.max(1, Math.floor(opts.connections / 2))}` : 'autocannon'
    const tables = [formatDbTables(summary, servers, opts.caseNames, fastest), ...(paired.length ? [formatPairs(paired, load)] : [])].join('\n\n')
    return {
      summary,
      paired,
      fastest,
      goals: dbTargets(summary, fastest, paired, queries),
      queries,
      failures,
      loadAverage: run.loadAverage,
      tables,
      database: { postgres: postgres?.version ?? null, sqlite: Boolean(sqlite), poolMax: opts.poolMax, pinned: pin.pinned ? pin.loadCpu : false },
    }
  } finally {
    await postgres?.stop()
    sqlite?.stop()
  }
}
