import { DATABASE_TESTS, DB_CASES } from './db-cases.mjs'

const int = (value) => (value == null ? '–' : Math.round(value).toLocaleString('en-US'))
const times = (value) => (value == null ? '–' : `${value.toFixed(2)}×`)
const ms = (value) => (value == null ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(1))
const ratio = (value, base) => (value != null && base ? value / base : null)

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`]
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`)
  return lines.join('\n')
}

/**
 * The fastest peer of each test: the server, not Fw, with the highest median req/s among those on the
 * same driver as Fw (pg). `{ <test>: serverId }`; a test no peer answered is left out.
 */
export function fastestPeers(summary, servers, caseNames) {
  const fwDriver = servers.find((server) => server.id === 'fw')?.driver ?? 'pg'
  const peers = servers.filter((server) => !server.id.startsWith('fw') && server.driver === fwDriver && summary[server.id])
  const fastest = {}
  for (const name of caseNames) {
    let best = null
    for (const peer of peers) {
      const rps = summary[peer.id].cases[name]?.rps
      if (rps != null && (best === null || rps > summary[best].cases[name].rps)) best = peer.id
    }
    if (best) fastest[name] = best
  }
  return fastest
}

/** Adds to every server's result the ratios of req/s and CPU per request to the fastest peer on its driver. */
export function addPeerRatios(summary, servers, fastest) {
  for (const server of servers) {
    const entry = summary[server.id]
    if (!entry) continue
    for (const [name, result] of Object.entries(entry.cases)) {
      const peer = server.driver === 'pg' ? summary[fastest[name]]?.cases[name] : undefined
      result.fastestPeer = server.driver === 'pg' ? (fastest[name] ?? null) : null
      result.rpsRatio = ratio(result.rps, peer?.rps)
      result.cpuRatio = ratio(result.cpuUsPerRequest, peer?.cpuUsPerRequest)
      result.p99Ratio = ratio(result.p99Ms, peer?.p99Ms)
    }
  }
}

/**
 * The paired comparisons of the db suite: on every TechEmpower database test Fw against the fastest peer on
 * pg, and on /db and /fortunes also against fastify with kysely (the same query layer) when that is not the
 * fastest. On those two, fastify + kysely ÷ fastify + pg too (`reference`: no target): what kysely itself
 * costs a server, the part of Fw's gap to raw pg that its query layer brings. On /posts, Fw's models and
 * eager loading against fastify with the same rows loaded by hand with kysely.
 */
export function dbComparisons(servers, caseNames, fastest) {
  const byId = (id) => servers.find((server) => server.id === id)
  const list = []
  // Route model binding against findOrFail by hand, on one path: the cost of `.bind()` (target >= 0.97, dbTargets).
  const [bound, byHand] = [byId('fw-bound'), byId('fw-by-hand')]
  if (caseNames.includes('world') && bound && byHand) {
    const label = `Fw, .bind('world', World) ÷ World.findOrFail(id) by hand, GET ${DB_CASES.world.path}`
    list.push({ key: 'world/binding', caseName: 'world', testCase: DB_CASES.world, peer: byHand.id, reference: true, label, a: { server: byHand, routes: 0 }, b: { server: bound, routes: 0 } })
  }
  const fw = byId('fw')
  if (!fw) return list
  // /json and /plaintext: Fw against the fastest peer on pg, as issue 29's bar covers every TechEmpower test.
  for (const name of ['json', 'plaintext'].filter((n) => caseNames.includes(n) && byId(fastest[n]))) {
    const peer = byId(fastest[name])
    list.push({ key: `${name}/${peer.id}`, caseName: name, testCase: DB_CASES[name], peer: peer.id, label: `Fw ÷ ${peer.label}, ${DB_CASES[name].path}`, a: { server: peer, routes: 0 }, b: { server: fw, routes: 0 } })
  }
  for (const name of DATABASE_TESTS.filter((n) => caseNames.includes(n))) {
    const others = name === 'posts' ? ['fastify-kysely'] : [fastest[name], ...(['db', 'fortunes'].includes(name) ? ['fastify-kysely'] : [])]
    // fastify + postgres.js, the fastest peer on any driver in the runs before Fw pipelined on pg.
    if (name !== 'posts') others.push('fastify-postgresjs')
    for (const id of new Set(others.filter((other) => other && byId(other)))) {
      const peer = byId(id)
      list.push({ key: `${name}/${id}`, caseName: name, testCase: DB_CASES[name], peer: id, label: `Fw ÷ ${peer.label}, ${DB_CASES[name].path}`, a: { server: peer, routes: 0 }, b: { server: fw, routes: 0 } })
    }
    // Fw with DB_DRIVER=postgres, against fastify on the same driver and the fastest peer on pg: measured, no target.
    const postgresJs = byId('fw-postgresjs')
    for (const id of postgresJs && name !== 'posts' ? new Set(['fastify-postgresjs', fastest[name]].filter((other) => other && byId(other))) : []) {
      const peer = byId(id)
      const label = `${postgresJs.label} ÷ ${peer.label}, ${DB_CASES[name].path} (no target)`
      list.push({ key: `${name}/postgres.js/${id}`, caseName: name, testCase: DB_CASES[name], peer: id, reference: true, label, a: { server: peer, routes: 0 }, b: { server: postgresJs, routes: 0 } })
    }
    const [kysely, pg] = [byId('fastify-kysely'), byId('fastify-pg')]
    if (['db', 'fortunes'].includes(name) && kysely && pg) {
      const label = `${kysely.label} ÷ ${pg.label}, ${DB_CASES[name].path} (kysely's own cost; no target)`
      list.push({ key: `${name}/kysely-cost`, caseName: name, testCase: DB_CASES[name], peer: 'fastify-pg', reference: true, label, a: { server: pg, routes: 0 }, b: { server: kysely, routes: 0 } })
    }
  }
  return list
}

/**
 * The targets (issue 29): Fw ≥ 1.00× the fastest pg peer and fastify + postgres.js on every TechEmpower test, paired,
 * and ≥ 0.95× fastify + kysely; on /posts
 * ≥ 0.90× fastify + kysely, in no more statements than the test allows (`queries`, by test and server, as the
 * verification counted them); Fw's p99 at most 1.10× that of the fastest peer on any driver.
 */
export function dbTargets(summary, fastest, pairs, queries = {}) {
  const list = []
  const binding = pairs.find((pair) => pair.key === 'world/binding')
  if (binding) list.push({ name: binding.label, value: binding.ratio, method: 'paired', target: '>= 0.97', met: binding.ratio == null ? null : binding.ratio >= 0.97 })
  const fw = summary.fw
  if (!fw) return list
  for (const pair of pairs.filter((entry) => !entry.reference)) {
    const name = pair.key.split('/')[0]
    const alone = ratio(fw.cases[name]?.rps, summary[pair.peer]?.cases[name]?.rps)
    const bound = name === 'posts' ? 0.9 : pair.peer === 'fastify-kysely' && fastest[name] !== 'fastify-kysely' ? 0.95 : 1
    const value = pair.ratio ?? alone
    const title = `${pair.label}${pair.peer === fastest[name] ? ' (the fastest peer)' : ''}`
    list.push({ name: title, value, method: pair.ratio == null ? 'alone' : 'paired', alone, target: `>= ${bound.toFixed(2)}`, met: value == null ? null : value >= bound })
  }
  // p99 against the fastest peer on any driver: judged on the paired rounds when Fw was paired with it (the same load
  // at the same moment), else on the rounds measured one after another.
  for (const name of Object.keys(fw.cases)) {
    const peer = fastestOfAll(summary, name)
    if (!peer || fw.cases[name].p99Ms == null) continue
    const alone = ratio(fw.cases[name].p99Ms, summary[peer].cases[name].p99Ms)
    const paired = pairs.find((pair) => !pair.reference && pair.key === `${name}/${peer}`)?.p99Ratio
    const value = paired ?? alone
    const title = `Fw p99 ÷ the fastest peer's (${peer}), ${DB_CASES[name].path}`
    list.push({ name: title, value, method: paired == null ? 'alone' : 'paired', alone, target: '<= 1.10', met: value == null ? null : value <= 1.1 })
  }
  for (const [name, counts] of Object.entries(queries)) {
    if (counts.fw === undefined) continue
    const most = DB_CASES[name].maxQueries
    list.push({ name: `Fw statements for one GET ${DB_CASES[name].path} on PostgreSQL`, value: counts.fw, target: `<= ${most}`, met: counts.fw <= most })
  }
  const problems = Object.values(fw.cases).reduce((sum, c) => sum + c.errors + c.non2xx + c.mismatches, 0)
  list.push({ name: 'Fw errors, non-2xx and wrong answers under load', value: Object.keys(fw.cases).length ? problems : null, target: '0', met: Object.keys(fw.cases).length ? problems === 0 : null })
  return list
}

/** The peer, on any driver, with the highest req/s on a test; null when no peer answered it. */
function fastestOfAll(summary, name) {
  let best = null
  for (const [id, entry] of Object.entries(summary)) {
    if (id.startsWith('fw') || entry.cases[name]?.rps == null) continue
    if (best === null || entry.cases[name].rps > summary[best].cases[name].rps) best = id
  }
  return best
}

/** The db suite's results as Markdown: one table per test, then start and memory. */
export function formatDbTables(summary, servers, caseNames, fastest) {
  const parts = []
  const shown = servers.filter((server) => summary[server.id])
  for (const name of caseNames) {
    const testCase = DB_CASES[name]
    const peer = servers.find((server) => server.id === fastest[name])
    const rows = shown
      .filter((server) => summary[server.id].cases[name])
      .map((server) => {
        const c = summary[server.id].cases[name]
        return [server.label, int(c.rps), times(c.rpsRatio), ms(c.p99Ms), ms(c.cpuUsPerRequest), times(c.cpuRatio), int(c.errors), int(c.non2xx), int(c.mismatches)]
      })
    if (!rows.length) continue
    const header = ['server', 'req/s', '× fastest', 'p99 ms', 'CPU µs/req', '× fastest', 'errors', 'non-2xx', 'wrong answers']
    const title = `**${testCase.label}: GET ${testCase.path}**${peer ? ` (fastest peer on pg: ${peer.label})` : ''}`
    parts.push(`${title}\n\n${table(header, rows)}`)
  }
  const rows = shown.map((server) => {
    const entry = summary[server.id]
    const rss = entry.rssBytes['0']
    return [server.label, ms(entry.coldStartMs['0']), rss ? (rss / 2 ** 20).toFixed(1) : '–']
  })
  parts.push(`**Start and memory**\n\n${table(['server', 'cold start ms', 'RSS after load MB'], rows)}`)
  return parts.join('\n\n')
}
