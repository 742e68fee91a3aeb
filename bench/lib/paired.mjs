import { readFileSync } from 'node:fs'
import { CASES } from './cases.mjs'
import { runLoad } from './load.mjs'
import { checkAnswer, fetchOnce, problemsUnderLoad, startServer } from './server-process.mjs'

/** Past this share of idle time on the shared core, a round did not keep both servers busy. */
const IDLE_LIMIT = 0.05

/** How long a server may keep the core busy on its own before the round is given up. */
const IDLE_TIMEOUT_MS = 15_000

/**
 * The comparisons a run can make from its servers and cases: Fw against bare polka@next on the basic
 * cases, and against each server of `pairedWith` (an `--add`ed build of Fw, say); the two ways of validating
 * the echo's body against each other (`variants`: fw-validate and fw-contract, measured here even when the
 * rounds leave them out); Fw whose `GET /users/{id}` declares its response (`.returns()`, fw-returns) against
 * Fw whose route declares nothing; and Fw with the most routes against Fw with the fewest.
 */
export function comparisons({ servers, caseNames, routeCounts, baseline, pairedWith = [], variants = [] }) {
  const fw = servers.find((server) => server.id === 'fw')
  const base = servers.find((server) => server.id === baseline)
  if (!fw) return []
  const list = []
  for (const other of [base, ...pairedWith.map((id) => servers.find((server) => server.id === id))].filter(Boolean)) {
    for (const name of ['hello', 'user'].filter((n) => caseNames.includes(n))) {
      const key = other === base ? name : `${name}/${other.id}`
      list.push({ key, caseName: name, label: `Fw ÷ ${other.label}, ${CASES[name].label}`, a: { server: other, routes: 0 }, b: { server: fw, routes: 0 } })
    }
  }
  const schema = variants.find((server) => server.id === 'fw-validate')
  const declared = variants.find((server) => server.id === 'fw-contract')
  if (caseNames.includes('echo') && schema && declared) {
    const label = `Fw, .body(schema) and request.validate() ÷ request.validate(schema), ${CASES.echo.label}`
    list.push({ key: 'echo/contract', caseName: 'echo', label, a: { server: schema, routes: 0 }, b: { server: declared, routes: 0 } })
  }
  const returns = variants.find((server) => server.id === 'fw-returns')
  if (caseNames.includes('user') && returns) {
    const label = `Fw, .returns(200, schema) ÷ no .returns(), ${CASES.user.label}`
    list.push({ key: 'user/returns', caseName: 'user', label, a: { server: fw, routes: 0 }, b: { server: returns, routes: 0 } })
  }
  const first = routeCounts[0]
  const last = routeCounts[routeCounts.length - 1]
  if (caseNames.includes('routes') && first !== last) {
    const label = `Fw with ${last.toLocaleString('en-US')} routes ÷ Fw with ${first.toLocaleString('en-US')}, ${CASES.user.label}`
    list.push({ key: `routes@${last}/${first}`, caseName: 'user', label, a: { server: fw, routes: first }, b: { server: fw, routes: last } })
  }
  return list
}

/** Ticks the core has spent idle, stolen by the host, and in all, from /proc/stat; null where it is missing. */
function coreTicks(cpu) {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n').find((text) => text.startsWith(`cpu${cpu} `))
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
    return { idle: idle + iowait, steal, total: user + nice + system + idle + iowait + irq + softirq + steal }
  } catch {
    return null
  }
}

/**
 * Paired measurement: the two servers of a comparison run pinned to the same core at the same moment,
 * each loaded by its own load generator on the other core. While both have requests waiting, the
 * scheduler shares the core between them evenly, so the ratio of their req/s is the inverse ratio of
 * their CPU cost per request. Whatever slows the machine during the measurement (another tenant on the
 * host, a slower minute) slows both alike and cancels out of the ratio, which a measurement taken a few
 * seconds earlier or later cannot promise.
 *
 * A round starts both servers fresh (the one started first alternates), checks an answer of each, warms
 * each up alone, waits until both are idle, and then loads both for `duration` seconds with half the
 * connections each. A round in which the shared core sat idle for more than IDLE_LIMIT of the time did not
 * keep both servers busy (the load generators fell behind): its ratio leans towards 1, so it is
 * reported and left out of the median.
 *
 * Resolves to `{ samples, failures }`: one sample per (comparison, round), and one failure per round that
 * could not be measured (every one is fatal: a comparison without its ratio leaves a target unmeasured).
 */
export async function measurePairs({ pairs, rounds, duration, warmup, connections, check, tool, pin, log }) {
  const samples = []
  const failures = []
  const failed = (server, message) => failures.push({ server, message, fatal: true })
  const half = Math.max(1, Math.floor(connections / 2))
  for (let round = 0; round < rounds; round++) {
    for (const pair of pairs) {
      const testCase = pair.testCase ?? CASES[pair.caseName]
      const sides = round % 2 ? [pair.b, pair.a] : [pair.a, pair.b]
      const where = (side) => `paired round ${round + 1}, ${side.server.id}${side.routes ? ` with ${side.routes} routes` : ''}`
      const handles = new Map()
      // A server that just started may still compile or collect garbage, one just warmed up may still answer
      // queued requests: each start and the measurement wait until the core is quiet.
      const quiet = async () => {
        for (const [side, handle] of handles) if (!(await handle.idle(IDLE_TIMEOUT_MS))) throw new Error(`${where(side)}: still busy ${IDLE_TIMEOUT_MS / 1000} s after its last request`)
      }
      try {
        for (const side of sides) {
          await quiet()
          handles.set(side, await startServer(side.server, { routes: side.routes, wrap: pin.wrap }))
        }
        for (const side of sides) {
          const handle = handles.get(side)
          const wrong = checkAnswer(await fetchOnce(handle.port, testCase, 60_000), testCase)
          if (wrong) throw new Error(`${where(side)}: ${testCase.label} answered wrongly: ${wrong}`)
          if (warmup > 0) await runLoad(tool, { port: handle.port, testCase, duration: warmup, connections, check: false, wrap: pin.wrap })
        }
        await quiet()

        const load = (side) => runLoad(tool, { port: handles.get(side).port, testCase, duration, connections: half, check, wrap: pin.wrap })
        const before = pin.pinned ? coreTicks(pin.serverCpu) : null
        const results = new Map()
        await Promise.all(sides.map(async (side) => results.set(side, await load(side))))
        const [resultA, resultB] = [results.get(pair.a), results.get(pair.b)]
        const after = pin.pinned ? coreTicks(pin.serverCpu) : null
        const ticks = before && after ? after.total - before.total : 0
        const idleShare = ticks > 0 ? (after.idle - before.idle) / ticks : null
        const stealShare = ticks > 0 ? (after.steal - before.steal) / ticks : null

        for (const [side, result] of [[pair.a, resultA], [pair.b, resultB]]) {
          const handle = handles.get(side)
          if (handle.exited) throw new Error(`${where(side)}: the server exited during ${testCase.label}`)
          for (const message of await problemsUnderLoad(handle, testCase, result, where(side))) failed(side.server.id, message)
        }
        const ratio = resultA.rps > 0 ? resultB.rps / resultA.rps : null
        const saturated = idleShare === null || idleShare <= IDLE_LIMIT
        const p99Ratio = resultA.p99Ms > 0 && resultB.p99Ms != null ? resultB.p99Ms / resultA.p99Ms : null
        samples.push({ key: pair.key, round, rpsA: resultA.rps, rpsB: resultB.rps, ratio, p99A: resultA.p99Ms, p99B: resultB.p99Ms, p99Ratio, idleShare, stealShare, saturated })
        const share = (value) => (value === null ? '?' : `${Math.round(value * 100)}%`)
        log(
          `  paired round ${round + 1}, ${pair.label}: ${Math.round(resultB.rps).toLocaleString('en-US')} ÷ ${Math.round(resultA.rps).toLocaleString('en-US')} req/s = ` +
            `${ratio?.toFixed(3)}, p99 ${resultB.p99Ms?.toFixed(1)} ÷ ${resultA.p99Ms?.toFixed(1)} ms; core ${pin.serverCpu ?? '?'} idle ${share(idleShare)}, stolen ${share(stealShare)}${saturated ? '' : ' (not saturated: left out of the median)'}`,
        )
      } catch (error) {
        failed(pair.b.server.id, error.message.startsWith('paired') ? error.message : `paired round ${round + 1}, ${pair.label}: ${error.message}`)
      } finally {
        for (const handle of handles.values()) await handle.stop()
      }
    }
  }
  return { samples, failures }
}
