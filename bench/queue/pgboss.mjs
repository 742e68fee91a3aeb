// pg-boss used directly, with the settings Fw gives it (bench/README.md, "Queue suite"), as the queue suite's peer:
// `dispatch --jobs N [--rate R]` sends jobs with `boss.send()`, `work --concurrency C` runs them with `boss.fetch()`
// and `boss.complete()` until SIGTERM, then writes what it saw to $QUEUE_BENCH_STATS/<pid>.json. Its own schema, pgboss_raw.
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { PgBoss } from 'pg-boss'
import { pace } from './pace.mjs'

const { positionals, values } = parseArgs({ allowPositionals: true, options: { jobs: { type: 'string' }, rate: { type: 'string' }, concurrency: { type: 'string' } } })
const working = positionals[0] === 'work'
const boss = new PgBoss({
  connectionString: process.env.DATABASE_URL,
  schema: 'pgboss_raw',
  max: 3,
  schedule: false,
  supervise: working,
  superviseIntervalSeconds: 5,
  monitorIntervalSeconds: 5,
  registerInstance: false,
})
boss.on('error', (error) => console.error(`pg-boss: ${error.message}`))
await boss.start()
await boss.createQueue('default', { policy: 'short', notify: true })

if (working) {
  // What Fw's worker does, without Fw: claim one job (fetch), run it, settle it (complete, fenced by its attempt),
  // claim the next at once; when none is due, poll again after 0.5 s. pg-boss's own work() takes a polling interval
  // (0.5 s at least) between two fetches of one job each, so it is no measure of a drain (bench/README.md).
  const stats = { count: 0, firstStart: 0, drainEnd: 0, latencies: [] }
  let stopping = false
  const loop = async () => {
    while (!stopping) {
      const [job] = await boss.fetch('default', { batchSize: 1, includeMetadata: true })
      if (!job) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        continue
      }
      const now = Date.now()
      stats.count++
      stats.firstStart ||= now
      if (job.data.payload.paced) stats.latencies.push(now - job.data.payload.sentAt)
      else stats.drainEnd = Date.now()
      await boss.complete('default', { id: job.id, retryCount: job.retryCount })
    }
  }
  const loops = Array.from({ length: Number(values.concurrency ?? 1) }, loop)
  process.once('SIGTERM', async () => {
    stopping = true
    await Promise.all(loops)
    await boss.stop({ graceful: false, close: true })
    writeFileSync(join(process.env.QUEUE_BENCH_STATS, `${process.pid}.json`), JSON.stringify(stats))
    process.exit(0)
  })
  console.log('pg-boss worker ready')
} else {
  const started = performance.now()
  const options = { retryLimit: 2, retryDelay: 10, retryBackoff: true, heartbeatSeconds: 10 }
  const count = await pace(Number(values.jobs), values.rate && Number(values.rate), (paced) =>
    boss.send('default', { name: 'Noop', payload: { sentAt: Date.now(), paced } }, { ...options, singletonKey: randomUUID() }),
  )
  const ms = performance.now() - started
  await boss.stop({ graceful: false, close: true })
  console.log(JSON.stringify({ count, ms }))
}
