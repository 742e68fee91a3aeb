import { loadavg } from 'node:os'
import { CASES, groups, measurementKey } from './cases.mjs'
import { runLoad } from './load.mjs'
import { checkAnswer, fetchOnce, startServer } from './server-process.mjs'

/**
 * Measures every server on every case in interleaved rounds: in each round, each server process is started
 * once per route count (its cold start timed), answers each case once correctly, takes the warm-up and the
 * measured load, and is stopped after its memory is read. The order of servers rotates from round to round
 * so that none always runs first or last.
 *
 * Resolves to `{ samples, failures }`: one sample per (round, server, measurement), and one `{ server, message }` per failure
 * (a server that would not start, a wrong answer, a load tool that failed).
 */
/** A failure line, with the server it is about (the exit status depends on whose it is). */
const failure = (server, message) => ({ server: server.id, message })

export async function measure({ servers, caseNames, routeCounts, rounds, duration, warmup, connections, check, tool, pin, log }) {
  const samples = []
  const failures = []
  const plan = groups(caseNames, routeCounts)
  for (let round = 0; round < rounds; round++) {
    for (const group of plan) {
      const order = servers.map((_, i) => servers[(i + round) % servers.length])
      for (const server of order) {
        const where = `round ${round + 1}, ${server.id}${group.routes ? `, ${group.routes} routes` : ''}`
        let handle
        try {
          handle = await startServer(server, { routes: group.routes, wrap: pin.wrap })
        } catch (error) {
          failures.push(failure(server, `${where}: failed to start: ${error.message}`))
          log(`  ${where}: failed to start`)
          continue
        }
        samples.push({ round, server: server.id, key: `start@${group.routes}`, coldStartMs: handle.coldStartMs })
        try {
          for (const caseName of group.cases) {
            const testCase = CASES[caseName]
            const key = measurementKey(caseName, group.routes)
            // The first answer may build a router lazily (hono does, for seconds with 10,000 routes): timed, not measured.
            const asked = performance.now()
            const wrong = checkAnswer(await fetchOnce(handle.port, testCase, 60_000), testCase)
            const firstAnswerMs = performance.now() - asked
            if (wrong) {
              failures.push(failure(server, `${where}: ${testCase.label} answered wrongly: ${wrong}`))
              continue
            }
            const load = { port: handle.port, testCase, connections, wrap: pin.wrap }
            if (warmup > 0) await runLoad(tool, { ...load, duration: warmup, check: false })
            const cpuBefore = handle.cpuSeconds()
            const result = await runLoad(tool, { ...load, duration, check })
            const cpuAfter = handle.cpuSeconds()
            // CPU time per request: unlike req/s, it hardly moves when other processes share the machine.
            result.cpuUsPerRequest = cpuBefore !== null && cpuAfter !== null && result.requests > 0 ? ((cpuAfter - cpuBefore) * 1e6) / result.requests : null
            if (handle.exited) {
              failures.push(failure(server, `${where}: the server exited during ${testCase.label}: ${handle.stderr.trim().split('\n').slice(-2).join(' | ')}`))
              break
            }
            const after = checkAnswer(await fetchOnce(handle.port, testCase), testCase)
            if (after) failures.push(failure(server, `${where}: ${testCase.label} answered wrongly after the load: ${after}`))
            if (result.requests === 0) failures.push(failure(server, `${where}: ${testCase.label}: no answer at all under load`))
            if (result.errors + result.non2xx + result.mismatches > 0) {
              const detail = result.firstMismatch ? ` (first: ${result.firstMismatch})` : ''
              failures.push(failure(server, `${where}: ${testCase.label}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.mismatches} wrong answers under load${detail}`))
            }
            samples.push({ round, server: server.id, key, firstAnswerMs, ...result })
            log(`  ${where}: ${testCase.label} ${Math.round(result.rps).toLocaleString('en-US')} req/s, p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuUsPerRequest?.toFixed(1)} µs CPU/req`)
          }
          const rss = handle.rssBytes()
          if (rss !== null) samples.push({ round, server: server.id, key: `rss@${group.routes}`, rssBytes: rss })
        } catch (error) {
          failures.push(failure(server, `${where}: ${error.message}`))
        } finally {
          await handle.stop()
        }
      }
    }
  }
  return { samples, failures, loadAverage: loadavg() }
}
