import { CASES, measurementKey } from './cases.mjs'

function median(values) {
  const sorted = values.filter((value) => typeof value === 'number').sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

const ratio = (value, base) => (value != null && base ? value / base : null)

/**
 * Folds the samples into one summary per server: for each measurement the median req/s and median p99 of the
 * rounds, each also as a ratio to the baseline server's in the same run; errors summed over the rounds;
 * the median cold start per route count; the largest RSS after load.
 */
export function summarize(samples, servers, baselineId) {
  const byServer = {}
  for (const server of servers) {
    const own = samples.filter((sample) => sample.server === server.id)
    const entry = { label: server.label, cases: {}, coldStartMs: {}, rssBytes: {} }
    for (const key of new Set(own.map((sample) => sample.key))) {
      const list = own.filter((sample) => sample.key === key)
      if (key.startsWith('start@')) entry.coldStartMs[key.slice(6)] = median(list.map((s) => s.coldStartMs))
      else if (key.startsWith('rss@')) entry.rssBytes[key.slice(4)] = Math.max(...list.map((s) => s.rssBytes))
      else {
        entry.cases[key] = {
          rps: median(list.map((s) => s.rps)),
          p99Ms: median(list.map((s) => s.p99Ms)),
          cpuUsPerRequest: median(list.map((s) => s.cpuUsPerRequest)),
          requests: list.reduce((sum, s) => sum + s.requests, 0),
          errors: list.reduce((sum, s) => sum + s.errors, 0),
          non2xx: list.reduce((sum, s) => sum + s.non2xx, 0),
          mismatches: list.reduce((sum, s) => sum + s.mismatches, 0),
          firstAnswerMs: Math.max(...list.map((s) => s.firstAnswerMs)),
          rounds: list.map((s) => ({ rps: Math.round(s.rps), p99Ms: s.p99Ms })),
        }
      }
    }
    byServer[server.id] = entry
  }
  const baseline = byServer[baselineId]
  for (const entry of Object.values(byServer)) {
    for (const [key, result] of Object.entries(entry.cases)) {
      result.rpsRatio = ratio(result.rps, baseline?.cases[key]?.rps)
      result.p99Ratio = ratio(result.p99Ms, baseline?.cases[key]?.p99Ms)
      result.cpuRatio = ratio(result.cpuUsPerRequest, baseline?.cases[key]?.cpuUsPerRequest)
    }
    entry.coldStartRatio = ratio(entry.coldStartMs['0'], baseline?.coldStartMs['0'])
  }
  return byServer
}

/**
 * Folds the paired samples into one entry per comparison: the median ratio of the rounds that kept the
 * shared core busy, the lowest and highest of them, and how many rounds were left out.
 */
export function summarizePairs(samples, pairs) {
  return pairs.map((pair) => {
    const own = samples.filter((sample) => sample.key === pair.key)
    const counted = own.filter((sample) => sample.saturated && sample.ratio != null).map((sample) => sample.ratio)
    const p99s = own.filter((sample) => sample.saturated && sample.p99Ratio != null).map((sample) => sample.p99Ratio)
    return {
      key: pair.key,
      label: pair.label,
      ratio: median(counted),
      lowest: counted.length ? Math.min(...counted) : null,
      highest: counted.length ? Math.max(...counted) : null,
      counted: counted.length,
      leftOut: own.length - counted.length,
      /** The p99 of the second server ÷ the first's, in the same rounds (median): the same load, the same moment. */
      p99Ratio: median(p99s),
      rounds: own.map(({ rpsA, rpsB, ratio, p99A, p99B, idleShare, stealShare, saturated }) => ({ rpsA: Math.round(rpsA), rpsB: Math.round(rpsB), ratio, p99A, p99B, idleShare, stealShare, saturated })),
    }
  })
}

/**
 * The issue's targets for Fw, each with the value measured (null when the run did not measure it). The
 * req/s ratios are judged on the paired measurement when the run made it (it cancels the machine's drift,
 * see paired.mjs); the ratio of the servers measured one after another is given beside it as `alone`.
 */
export function targets(summary, routeCounts, pairs = []) {
  const fw = summary.fw
  if (!fw) return []
  const first = routeCounts[0]
  const last = routeCounts[routeCounts.length - 1]
  const scaled = first === last ? null : ratio(fw.cases[measurementKey('user', last)]?.rps, fw.cases[measurementKey('user', first)]?.rps)
  const problems = Object.values(fw.cases).reduce((sum, c) => sum + c.errors + c.non2xx + c.mismatches, 0)
  const judged = (key, alone) => {
    const paired = pairs.find((pair) => pair.key === key)?.ratio
    return paired == null ? { value: alone ?? null, method: 'alone' } : { value: paired, method: 'paired', alone: alone ?? null }
  }
  const list = [
    { name: 'Fw req/s on GET /hello vs bare polka@next', ...judged('hello', fw.cases.hello?.rpsRatio), target: '>= 0.85', met: (v) => v >= 0.85 },
    { name: 'Fw req/s on GET /users/:id vs bare polka@next', ...judged('user', fw.cases.user?.rpsRatio), target: '>= 0.85', met: (v) => v >= 0.85 },
    {
      name: `Fw req/s with ${last.toLocaleString('en-US')} routes vs ${first.toLocaleString('en-US')} routes`,
      ...judged(`routes@${last}/${first}`, scaled),
      target: '>= 0.95',
      met: (v) => v >= 0.95,
    },
    { name: 'Fw cold start vs bare polka@next', value: fw.coldStartRatio, target: '<= 1.5', met: (v) => v <= 1.5 },
    { name: 'Fw errors, non-2xx and wrong answers under load', value: Object.keys(fw.cases).length ? problems : null, target: '0', met: (v) => v === 0 },
  ]
  return list.map(({ met, ...item }) => ({ ...item, met: item.value == null ? null : met(item.value) }))
}

const int = (value) => (value == null ? '–' : Math.round(value).toLocaleString('en-US'))
const times = (value) => (value == null ? '–' : `${value.toFixed(2)}×`)
const ms = (value) => (value == null ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(1))

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`]
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`)
  return lines.join('\n')
}

/** The results as Markdown tables (readable in a terminal, pasted as they are into the README). */
export function formatTables(summary, servers, caseNames, routeCounts) {
  const parts = []
  const shown = servers.filter((server) => summary[server.id])
  for (const name of caseNames.filter((n) => n !== 'routes')) {
    const rows = shown
      .filter((server) => summary[server.id].cases[name])
      .map((server) => {
        const c = summary[server.id].cases[name]
        return [server.label, int(c.rps), times(c.rpsRatio), ms(c.p99Ms), times(c.p99Ratio), ms(c.cpuUsPerRequest), times(c.cpuRatio), int(c.errors), int(c.non2xx)]
      })
    if (rows.length) {
      const header = ['server', 'req/s', '× polka@next', 'p99 ms', '× polka@next', 'CPU µs/req', '× polka@next', 'errors', 'non-2xx']
      parts.push(`**${CASES[name].label}**\n\n${table(header, rows)}`)
    }
  }
  if (caseNames.includes('routes') && routeCounts.length > 0) {
    const first = routeCounts[0]
    const last = routeCounts[routeCounts.length - 1]
    const rows = shown.map((server) => {
      const cases = summary[server.id].cases
      const at = (n) => cases[measurementKey('user', n)]
      return [
        server.label,
        ...routeCounts.map((n) => int(at(n)?.rps)),
        times(ratio(at(last)?.rps, at(first)?.rps)),
        ms(at(last)?.p99Ms),
      ]
    })
    const header = ['server', ...routeCounts.map((n) => `${n.toLocaleString('en-US')} routes`), `${last.toLocaleString('en-US')} ÷ ${first.toLocaleString('en-US')}`, `p99 ms at ${last.toLocaleString('en-US')}`]
    parts.push(`**GET /users/:id registered after N other parametric routes (req/s)**\n\n${table(header, rows)}`)
  }
  const last = caseNames.includes('routes') ? routeCounts[routeCounts.length - 1] : undefined
  const rows = shown.map((server) => {
    const entry = summary[server.id]
    const rss = entry.rssBytes['0'] ?? Math.max(0, ...Object.values(entry.rssBytes))
    const withRoutes = last === undefined ? [] : [ms(entry.coldStartMs[String(last)])]
    return [server.label, ms(entry.coldStartMs['0']), times(entry.coldStartRatio), ...withRoutes, rss ? (rss / 2 ** 20).toFixed(1) : '–']
  })
  const header = ['server', 'cold start ms', '× polka@next', ...(last === undefined ? [] : [`cold start ms, ${last.toLocaleString('en-US')} routes`]), 'RSS after load MB']
  parts.push(`**Start and memory**\n\n${table(header, rows)}`)
  return parts.join('\n\n')
}

/** The paired comparisons as a Markdown table. */
export function formatPairs(pairs, load) {
  const rows = pairs.map((pair) => [
    pair.label,
    times(pair.ratio),
    pair.ratio == null ? '–' : `${times(pair.lowest)} – ${times(pair.highest)}`,
    times(pair.p99Ratio),
    `${pair.counted}${pair.leftOut ? ` (${pair.leftOut} left out)` : ''}`,
  ])
  const title = `**Paired on one core** (both servers on core 0 at once, each loaded by its own ${load} on core 1: the ratio of their req/s, and of their p99)`
  return `${title}\n\n${table(['comparison', 'ratio (median)', 'lowest – highest', 'p99 ratio (median)', 'rounds'], rows)}`
}

export function formatTargets(list) {
  return list
    .map((t) => {
      const value = t.value == null ? 'not measured' : Number.isInteger(t.value) ? String(t.value) : `${t.value.toFixed(2)}×`
      const how = t.method === 'paired' ? ` paired (measured alone: ${times(t.alone)})` : ''
      const verdict = t.met == null ? '–' : t.met ? 'met' : 'MISSED'
      return `- ${t.name}: ${value}${how} (target ${t.target}) ${verdict}`
    })
    .join('\n')
}
