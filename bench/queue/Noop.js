// The job of the queue suite, copied into the bench app's dist/App/Jobs: it does nothing but note how long after
// its dispatch it started, and, when its process exits, writes what it saw to $QUEUE_BENCH_STATS/<pid>.json.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Job } from 'fw-runtime/queue'

const stats = { count: 0, firstStart: 0, drainEnd: 0, latencies: [] }

export class Noop extends Job {
  handle({ sentAt, paced }) {
    const now = Date.now()
    stats.count++
    stats.firstStart ||= now
    if (paced) stats.latencies.push(now - sentAt)
    else stats.drainEnd = Date.now()
  }
}

process.on('exit', () => writeFileSync(join(process.env.QUEUE_BENCH_STATS, `${process.pid}.json`), JSON.stringify(stats)))
