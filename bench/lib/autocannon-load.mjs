// The load generator when wrk is missing: runs autocannon on one case and prints the summary as one JSON
// line, in the shape wrk.lua prints. Usage: node autocannon-load.mjs '<json options>'
import autocannon from 'autocannon'

const options = JSON.parse(process.argv[2])
const result = await autocannon({
  url: options.url,
  method: options.method,
  body: options.body,
  headers: options.body ? { 'content-type': 'application/json' } : {},
  connections: options.connections,
  duration: options.duration,
  expectBody: options.expectBody,
})
// autocannon counts a body that differs as a mismatch, but not a status that differs: non2xx covers that.
process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.total,
    durationUs: Math.round(result.duration * 1e6),
    connectErrors: 0,
    readErrors: result.errors - result.timeouts,
    writeErrors: 0,
    timeouts: result.timeouts,
    statusErrors: result.non2xx,
    mismatches: result.mismatches ?? 0,
    firstMismatch: '',
    p50Us: Math.round(result.latency.p50 * 1000),
    p99Us: Math.round(result.latency.p99 * 1000),
    maxUs: Math.round(result.latency.max * 1000),
  })}\n`,
)
