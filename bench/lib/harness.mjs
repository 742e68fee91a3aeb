import { loadavg } from 'node:os'
import { CASES, groups, measurementKey } from './cases.mjs'
import { runLoad } from './load.mjs'
import { checkAnswer, fetchOnce, problemsUnderLoad, startServer } from './server-process.mjs'

/** A failure line, with the server it is about (the exit status depends on whose it is). */
const failure = (server, message) => ({ server: server.id, message })

/** How long a server may keep the CPU busy on its own before it is stopped so that the others can be measured. */
const IDLE_TIMEOUT_MS = 15_000

/**
 * Measures every server on every case in interleaved rounds. In each round, for each route count, every
 * server process is started (its cold start timed, one after another, each once the others are idle); then
 * case by case, each server in turn answers the case once correctly, takes the warm-up and the measured
 * load. So the servers' measurements of one case lie seconds apart, not minutes: a machine that slows down
 * for a while slows them alike. A server's memory is read and it is stopped after its last case. The order of servers
 * rotates from round to round so that none always runs first or last.
 *
 * `cases` and `plan` (the groups of cases one server process answers) default to the default suite's.
 * Resolves to `{ samples, failures }`: one sample per (round, server, measurement), and one `{ server, message }` per failure
 * (a server that would not start, a wrong answer, a load tool that failed).
 */
export async function measure({ servers, caseNames, routeCounts, rounds, duration, warmup, connections, check, tool, pin, log, cases = CASES, plan = groups(caseNames, routeCounts) }) {
  const samples = []
  const failures = []
  for (let round = 0; round < rounds; round++) {
    for (const group of plan) {
      const order = servers.map((_, i) => servers[(i + round) % servers.length])
      const where = (server) => `round ${round + 1}, ${server.id}${group.routes ? `, ${group.routes} routes` : ''}`
      const running = []
      try {
        for (const server of order) {
          await untilQuiet(running, where, failures, log)
          try {
            const handle = await startServer(server, { routes: group.routes, wrap: pin.wrap })
            running.push({ server, handle, broken: false })
            samples.push({ round, server: server.id, key: `start@${group.routes}`, coldStartMs: handle.coldStartMs })
          } catch (error) {
            failures.push(failure(server, `${where(server)}: failed to start: ${error.message}`))
            log(`  ${where(server)}: failed to start`)
          }
        }
        for (const [index, caseName] of group.cases.entries()) {
          const last = index === group.cases.length - 1
          for (const entry of running) {
            const { server, handle } = entry
            if (!entry.broken) await untilQuiet(running, where, failures, log)
            if (!entry.broken) {
              try {
                const sample = await measureCase({ handle, testCase: cases[caseName], key: measurementKey(caseName, group.routes), where: where(server), duration, warmup, connections, check, tool, pin })
                for (const message of sample.failures) failures.push(failure(server, message))
                entry.broken = sample.broken
                if (sample.result) {
                  samples.push({ round, server: server.id, ...sample.result })
                  const { result } = sample
                  log(`  ${where(server)}: ${cases[caseName].label} ${Math.round(result.rps).toLocaleString('en-US')} req/s, p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuUsPerRequest?.toFixed(1)} µs CPU/req`)
                }
              } catch (error) {
                failures.push(failure(server, `${where(server)}: ${error.message}`))
                entry.broken = true
              }
            }
            // A slow server still works through the requests queued when the load stopped (seconds of them for
            // some peers with 10,000 routes), on the core the next server is measured on: stopped after its last case.
            if (last || entry.broken) {
              const rss = handle.rssBytes()
              if (rss !== null) samples.push({ round, server: server.id, key: `rss@${group.routes}`, rssBytes: rss })
              await handle.stop()
            }
          }
        }
      } finally {
        // Whatever a failure left running (stop() returns at once for a stopped server).
        for (const { handle } of running) await handle.stop()
      }
    }
  }
  return { samples, failures, loadAverage: loadavg() }
}

/**
 * Waits until no running server uses the CPU: one just started may still be compiling or collecting its
 * garbage in the background, one just measured may still be answering queued requests, and all share core 0.
 * A server still busy after IDLE_TIMEOUT_MS is stopped and measured no further this round.
 */
async function untilQuiet(running, where, failures, log) {
  const quiet = await Promise.all(running.map(({ handle }) => handle.idle(IDLE_TIMEOUT_MS)))
  for (const [i, entry] of running.entries()) {
    if (quiet[i] || entry.broken) continue
    const message = `${where(entry.server)}: still busy ${IDLE_TIMEOUT_MS / 1000} s after its last request; stopped`
    log(`  ${message}`)
    failures.push(failure(entry.server, message))
    entry.broken = true
    await entry.handle.stop()
  }
}

/**
 * One server on one case: the first answer checked (and timed), the warm-up, the measured load with the
 * server's CPU time around it, and the answer checked again. Resolves to `{ result, failures, broken }`;
 * `broken` when the server exited, so that it gets no further case this round.
 */
async function measureCase({ handle, testCase, key, where, duration, warmup, connections, check, tool, pin }) {
  // The first answer may build a router lazily (hono does, for seconds with 10,000 routes): timed, not measured.
  const asked = performance.now()
  const wrong = checkAnswer(await fetchOnce(handle.port, testCase, 60_000), testCase)
  const firstAnswerMs = performance.now() - asked
  if (wrong) return { result: null, failures: [`${where}: ${testCase.label} answered wrongly: ${wrong}`], broken: false }
  const load = { port: handle.port, testCase, connections, wrap: pin.wrap }
  if (warmup > 0) await runLoad(tool, { ...load, duration: warmup, check: false })
  const cpuBefore = handle.cpuSeconds()
  const result = await runLoad(tool, { ...load, duration, check })
  const cpuAfter = handle.cpuSeconds()
  // CPU time per request: unlike req/s, it hardly moves when other processes of the machine take turns on the core.
  result.cpuUsPerRequest = cpuBefore !== null && cpuAfter !== null && result.requests > 0 ? ((cpuAfter - cpuBefore) * 1e6) / result.requests : null
  if (handle.exited) {
    const output = handle.stderr.trim().split('\n').slice(-2).join(' | ')
    return { result: null, failures: [`${where}: the server exited during ${testCase.label}: ${output}`], broken: true }
  }
  return { result: { key, firstAnswerMs, ...result }, failures: await problemsUnderLoad(handle, testCase, result, where), broken: false }
}
