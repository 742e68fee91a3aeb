import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { BENCH_DIR } from './setup.mjs'

/**
 * Puts load on one case for `duration` seconds with `connections` connections (one wrk thread, or
 * autocannon) and resolves to the summary printed by wrk.lua / autocannon-load.mjs. With `check`, every
 * response's status and body are compared with the case's (smoke mode).
 */
export function runLoad(tool, { port, testCase, duration, connections, check, wrap }) {
  const url = `http://127.0.0.1:${port}${testCase.path}`
  let command
  let args
  const env = { ...process.env }
  if (tool.name === 'wrk') {
    env.BENCH_METHOD = testCase.method
    env.BENCH_BODY = testCase.requestBody ?? ''
    if (check) {
      env.BENCH_EXPECT_STATUS = String(testCase.status)
      env.BENCH_EXPECT_BODY = testCase.expect?.body ?? testCase.body ?? ''
      if (testCase.expect) {
        env.BENCH_EXPECT_KIND = testCase.expect.kind
        env.BENCH_EXPECT_COUNT = String(testCase.expect.count ?? 1)
        env.BENCH_EXPECT_TYPE = testCase.contentType.replace(/\s/g, '')
      }
    }
    ;[command, args] = wrap('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '5s', '-s', join(BENCH_DIR, 'lib', 'wrk.lua'), url], 'load')
  } else {
    if (check && testCase.expect && testCase.expect.kind !== 'exact') throw new Error(`autocannon cannot check ${testCase.label} under load: install wrk`)
    const expectBody = check ? (testCase.expect?.body ?? testCase.body) : undefined
    const options = { url, method: testCase.method, body: testCase.requestBody, connections, duration, expectBody }
    ;[command, args] = wrap(process.execPath, [join(BENCH_DIR, 'lib', 'autocannon-load.mjs'), JSON.stringify(options)], 'load')
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.once('error', (error) => reject(new Error(`${tool.name} could not start: ${error.message}`)))
    child.once('close', (code) => {
      const line = stdout.split('\n').find((text) => text.startsWith('{"requests"'))
      if (code !== 0 || !line) {
        reject(new Error(`${tool.name} failed (exit ${code}): ${`${stderr}${stdout}`.trim().split('\n').slice(-3).join(' | ')}`))
        return
      }
      const summary = JSON.parse(line)
      const seconds = summary.durationUs / 1e6
      resolve({
        requests: summary.requests,
        rps: seconds > 0 ? summary.requests / seconds : 0,
        p50Ms: summary.p50Us / 1000,
        p99Ms: summary.p99Us / 1000,
        maxMs: summary.maxUs / 1000,
        errors: summary.connectErrors + summary.readErrors + summary.writeErrors + summary.timeouts,
        non2xx: summary.statusErrors,
        mismatches: summary.mismatches,
        firstMismatch: summary.firstMismatch || undefined,
      })
    })
  })
}
