// `npm run bench -- --suite queue`: Fw's job queue on PostgreSQL (pg-boss) and on SQLite, and pg-boss used
// directly, draining the same trivial jobs. See bench/README.md, "Queue suite".
import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPostgres } from './database.mjs'
import { BENCH_DIR, BenchError, ROOT_DIR } from './setup.mjs'

const FW = join(ROOT_DIR, 'runtime', 'dist', 'cli', 'fw.js')

/** The queues measured: Fw's own on both databases, and its peer, pg-boss called directly. */
export const QUEUE_PARTICIPANTS = {
  'fw-pg': { label: 'Fw on PostgreSQL (pg-boss)', database: 'postgres' },
  pgboss: { label: 'pg-boss, used directly', database: 'postgres' },
  'fw-sqlite': { label: 'Fw on SQLite', database: 'sqlite' },
}

/** The targets of the issue that asked for this suite. */
const TARGETS = { 'fw-pg': { drain: 1000, p50: 50 }, 'fw-sqlite': { drain: 200, p50: 50 }, ratio: 0.9 }

/**
 * Runs the suite: for each round, each worker count and each participant (PostgreSQL's two alternating, so that
 * their ratio is taken from runs seconds apart), `jobs` jobs are dispatched from one process (timed), then drained by
 * that many worker processes of concurrency 1 (timed from the first start to the last end, as the workers saw
 * them); then, the workers idle, `pacedJobs` jobs are dispatched at `rate` a second and each one's delay from its
 * dispatch to its start is kept. Resolves to `{ runs, summary, paired, goals, tables, loadAverage }`.
 */
export async function runQueueSuite(opts, { log }) {
  const postgres = await startPostgres({ wrap: (command, args) => [command, args], log })
  const app = benchApp()
  const runs = []
  try {
    for (let round = 1; round <= opts.rounds; round++) {
      for (const workers of opts.workers) {
        // The order rotates from round to round: the first run after PostgreSQL starts is not always the same one's.
        for (const id of rotate(opts.participants, round - 1)) {
          const run = await measure(id, { ...opts, workers, round, postgres, app, log })
          runs.push(run)
          log(
            `round ${round}, ${id}, ${workers} worker(s): dispatch ${Math.round(run.dispatchRate)} jobs/s, drain ${Math.round(run.drainRate)} jobs/s, ` +
              `start delay p50 ${run.p50} ms, p99 ${run.p99} ms`,
          )
        }
      }
    }
  } finally {
    await postgres.stop()
    rmSync(app.dir, { recursive: true, force: true })
  }
  const summary = summarize(runs, opts)
  const paired = pairs(runs, opts)
  const goals = targets(summary, paired)
  return { runs, summary, paired, goals, tables: format(summary, paired, opts), loadAverage: loadavg() }
}

/**
 * An application folder for `fw queue:work`, as `npm run build` leaves one: dist/App/Jobs/Noop.js, fw-runtime linked
 * to this checkout's build, and a folder where the workers write what they saw.
 */
function benchApp() {
  const dir = mkdtempSync(join(tmpdir(), 'fw-bench-queue-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(join(ROOT_DIR, 'runtime'), join(dir, 'node_modules', 'fw-runtime'), 'dir')
  mkdirSync(join(dir, 'dist', 'App', 'Jobs'), { recursive: true })
  copyFileSync(join(BENCH_DIR, 'queue', 'Noop.js'), join(dir, 'dist', 'App', 'Jobs', 'Noop.js'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fw-bench-queue', private: true, type: 'module' }))
  return { dir, stats: join(dir, 'stats') }
}

/** One run: an empty queue, `jobs` dispatched, drained by `workers` processes, then the paced jobs. */
async function measure(id, { workers, jobs, pacedJobs, rate, postgres, app, log }) {
  const participant = QUEUE_PARTICIPANTS[id]
  rmSync(app.stats, { recursive: true, force: true })
  mkdirSync(app.stats)
  const sqlite = participant.database === 'sqlite' ? join(app.dir, `queue-${Date.now()}.sqlite`) : undefined
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    QUEUE_DRIVER: 'database',
    DATABASE_URL: sqlite ? `sqlite:${sqlite}` : postgres.url,
    QUEUE_BENCH_STATS: app.stats,
  }
  const pending = await pendingCounter(id, env.DATABASE_URL)
  try {
    await pending.empty()
    const dispatched = await dispatch(id, env, app, { jobs })
    const started = Array.from({ length: workers }, () => startWorker(id, env, app))
    await Promise.all(started.map((worker) => worker.ready))
    await until(async () => (await pending.count()) === 0, `${id}: the ${jobs} jobs to be drained`, 600_000)
    // The workers idle; then jobs come one by one, and each start is timed from its dispatch.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await dispatch(id, env, app, { jobs: pacedJobs, rate })
    await until(async () => (await pending.count()) === 0, `${id}: the paced jobs to run`, 120_000)
    await Promise.all(started.map((worker) => worker.stop()))
    const seen = readdirSync(app.stats).map((file) => JSON.parse(readFileSync(join(app.stats, file), 'utf8')))
    const ran = seen.reduce((sum, stats) => sum + stats.count, 0)
    if (ran < jobs + pacedJobs) throw new BenchError(`${id}: the workers ran ${ran} of ${jobs + pacedJobs} jobs`)
    if (ran > jobs + pacedJobs) log(`note: ${id} ran ${ran - jobs - pacedJobs} job(s) twice (at least once is what a queue promises)`)
    const first = Math.min(...seen.map((stats) => stats.firstStart).filter(Boolean))
    const drained = Math.max(...seen.map((stats) => stats.drainEnd))
    const latencies = seen.flatMap((stats) => stats.latencies).sort((a, b) => a - b)
    return {
      participant: id,
      workers,
      dispatchRate: (dispatched.count * 1000) / dispatched.ms,
      drainRate: (jobs * 1000) / (drained - first),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
    }
  } finally {
    await pending.close()
    if (sqlite) for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqlite}${suffix}`, { force: true })
  }
}

function rotate(list, by) {
  const shift = by % list.length
  return [...list.slice(shift), ...list.slice(0, shift)]
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
}

/** Dispatches through Fw (bench/queue/fw-dispatch.mjs) or pg-boss (bench/queue/pgboss.mjs): `{ count, ms }`. */
async function dispatch(id, env, app, { jobs, rate }) {
  const script = id === 'pgboss' ? [join(BENCH_DIR, 'queue', 'pgboss.mjs'), 'dispatch'] : [join(BENCH_DIR, 'queue', 'fw-dispatch.mjs')]
  const args = [...script, '--jobs', String(jobs), ...(rate ? ['--rate', String(rate)] : [])]
  const { stdout } = await run(process.execPath, args, { cwd: app.dir, env })
  return JSON.parse(stdout.trim().split('\n').at(-1))
}

/** A worker process: `fw queue:work` in the bench app, or pg-boss's `work()`; `ready` once it takes jobs. */
function startWorker(id, env, app) {
  const args = id === 'pgboss' ? [join(BENCH_DIR, 'queue', 'pgboss.mjs'), 'work'] : [FW, 'queue:work']
  const child = spawn(process.execPath, args, { cwd: app.dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const ready = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk
      if (/Fw queue worker|pg-boss worker ready/.test(output)) resolve()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new BenchError(`${id} worker exited with ${code} before it was ready: ${output.slice(-500)}`)))
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {
    ready,
    async stop() {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** Counts the jobs not yet done, in the participant's own table; `empty()` deletes every job first. */
async function pendingCounter(id, url) {
  if (url.startsWith('sqlite:')) {
    const Database = createRequire(join(ROOT_DIR, 'runtime', 'package.json'))('better-sqlite3')
    let db
    const open = () => (db ??= new Database(url.slice('sqlite:'.length), { readonly: false, timeout: 5_000 }))
    return {
      async empty() {},
      async count() {
        try {
          return open().prepare('select count(*) as count from fw_jobs').get().count
        } catch (error) {
          if (/no such table/.test(error.message)) return 0
          throw error
        }
      },
      async close() {
        db?.close()
      },
    }
  }
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const schema = id === 'pgboss' ? 'pgboss_raw' : 'pgboss'
  const exists = async () => (await client.query('select 1 from information_schema.tables where table_schema = $1 and table_name = $2', [schema, 'job'])).rowCount > 0
  return {
    async empty() {
      if (await exists()) await client.query(`delete from ${schema}.job`)
    },
    async count() {
      if (!(await exists())) return 0
      return (await client.query(`select count(*)::int as count from ${schema}.job where state < 'completed'`)).rows[0].count
    },
    async close() {
      await client.end()
    },
  }
}

async function until(condition, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new BenchError(`waited ${timeoutMs / 1000} s for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.once('exit', (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new BenchError(`${args[0]} exited with ${code}: ${stderr.slice(-500)}`))))
  })
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Medians of the rounds, per participant and worker count. */
function summarize(runs, opts) {
  const summary = []
  for (const id of opts.participants) {
    for (const workers of opts.workers) {
      const mine = runs.filter((run) => run.participant === id && run.workers === workers)
      summary.push({
        participant: id,
        workers,
        dispatchRate: median(mine.map((run) => run.dispatchRate)),
        drainRate: median(mine.map((run) => run.drainRate)),
        p50: median(mine.map((run) => run.p50)),
        p99: median(mine.map((run) => run.p99)),
      })
    }
  }
  return summary
}

/** Fw on PostgreSQL ÷ pg-boss used directly, from the runs of one round (seconds apart), median of the rounds. */
function pairs(runs, opts) {
  if (!opts.participants.includes('fw-pg') || !opts.participants.includes('pgboss')) return []
  return opts.workers.map((workers) => {
    const ratios = { drain: [], dispatch: [] }
    for (let round = 1; round <= opts.rounds; round++) {
      const of = (id) => runs.filter((run) => run.participant === id && run.workers === workers)[round - 1]
      const [fw, peer] = [of('fw-pg'), of('pgboss')]
      if (!fw || !peer) continue
      ratios.drain.push(fw.drainRate / peer.drainRate)
      ratios.dispatch.push(fw.dispatchRate / peer.dispatchRate)
    }
    return { workers, drain: median(ratios.drain), dispatch: median(ratios.dispatch), rounds: ratios.drain.length }
  })
}

function targets(summary, paired) {
  const goals = []
  for (const row of summary) {
    const target = TARGETS[row.participant]
    if (!target) continue
    goals.push({ what: `${row.participant}, ${row.workers} worker(s): drain ≥ ${target.drain} jobs/s`, value: Math.round(row.drainRate), met: row.drainRate >= target.drain })
    goals.push({ what: `${row.participant}, ${row.workers} worker(s): start delay p50 ≤ ${target.p50} ms`, value: row.p50, met: row.p50 <= target.p50 })
  }
  for (const pair of paired) {
    goals.push({ what: `Fw ÷ pg-boss, ${pair.workers} worker(s), drain ≥ ${TARGETS.ratio.toFixed(2)}×`, value: pair.drain.toFixed(3), met: pair.drain >= TARGETS.ratio })
  }
  return goals
}

function format(summary, paired, opts) {
  const header = ['queue', 'workers', 'dispatch jobs/s', 'drain jobs/s', 'start delay p50', 'p99']
  const rows = summary.map((row) => [
    QUEUE_PARTICIPANTS[row.participant].label,
    String(row.workers),
    String(Math.round(row.dispatchRate)),
    String(Math.round(row.drainRate)),
    `${row.p50} ms`,
    `${row.p99} ms`,
  ])
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)))
  const line = (cells) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')
  const table = [
    `${opts.jobs.toLocaleString('en-US')} trivial jobs dispatched from one process, then drained; start delay of ${opts.pacedJobs} jobs dispatched at ${opts.rate}/s to idle workers (medians of ${opts.rounds} round(s))`,
    line(header),
    ...rows.map(line),
  ]
  for (const pair of paired) table.push(`Fw ÷ pg-boss, ${pair.workers} worker(s), paired by round: drain ${pair.drain.toFixed(2)}×, dispatch ${pair.dispatch.toFixed(2)}× (${pair.rounds} round(s))`)
  return table.join('\n')
}
