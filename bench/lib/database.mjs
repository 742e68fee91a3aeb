import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { BLOG_SCHEMA, blogRows } from './blog.mjs'
import { FORTUNES, WORLD_ROWS } from './db-cases.mjs'
import { freePort } from './server-process.mjs'
import { BenchError, ROOT_DIR } from './setup.mjs'

/** The stops of the databases started and not yet stopped, for `stopDatabases`. */
const live = new Set()

/** Stops every database this process started (an interrupted run must not leave PostgreSQL behind). */
export function stopDatabases() {
  for (const stop of live) stop()
}

const SCHEMA = [
  'CREATE TABLE world (id integer PRIMARY KEY, "randomNumber" integer NOT NULL)',
  'CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) NOT NULL)',
]

/** Rows as `INSERT INTO table (columns) SELECT * FROM unnest(…)` takes them: one array per column. */
async function insertColumns(client, table, types, rows) {
  const columns = Object.keys(rows[0])
  const values = columns.map((column) => rows.map((row) => row[column]))
  const list = columns.map((column, i) => `$${i + 1}::${types[column] ?? 'int'}[]`).join(', ')
  await client.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${list})`, values)
}

const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString())

/**
 * The CPU time, in µs, that the PostgreSQL whose postmaster is `pid` has used: the postmaster's own, what its
 * ended children left it (cutime, cstime), and its live children's (the backends of the servers' pools).
 */
function clusterCpuUs(pid) {
  const fields = (text) => text.slice(text.lastIndexOf(')') + 2).split(' ')
  const own = fields(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  // After ')' the fields start at the 3rd (state): ppid is [1], utime [11], stime [12], cutime [13], cstime [14].
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat
    try {
      stat = fields(readFileSync(`/proc/${entry}/stat`, 'utf8'))
    } catch {
      continue
    }
    if (Number(stat[1]) === pid) ticks += Number(stat[11]) + Number(stat[12])
  }
  return ticks * TICK_US
}

/** Rows of `world` with a random number 1..10,000 each, as TechEmpower fills it. */
function worldRows() {
  return Array.from({ length: WORLD_ROWS }, (_, i) => [i + 1, 1 + Math.floor(Math.random() * WORLD_ROWS)])
}

function binary(name) {
  for (const folder of ['/usr/local/bin', '/usr/bin']) if (existsSync(join(folder, name))) return join(folder, name)
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : []
  for (const version of versions) {
    const path = `/usr/lib/postgresql/${version}/bin/${name}`
    if (existsSync(path)) return path
  }
  throw new BenchError(`PostgreSQL's ${name} is not installed (apt-get install -y postgresql): the db suite needs it`)
}

/**
 * Starts a throwaway PostgreSQL for the db suite on 127.0.0.1 and a free port, data under /tmp, fsync off
 * (the data is thrown away), pinned with `wrap` to the load generator's core, and fills `world`, `fortune`
 * and the blog's tables (blog.mjs). pg_stat_statements counts the statements the servers run.
 * The server binaries refuse to run as root, so as root they run as the `postgres` user.
 * Resolves to `{ url, version, readWorld(ids), countQueries(work), window, stop() }`; `stop()` stops it and removes its data.
 */
export async function startPostgres({ wrap, log, trackPlanning = false }) {
  const folder = mkdtempSync('/tmp/fw-bench-pg-')
  const asRoot = userInfo().uid === 0
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres']).toString())
    chownSync(folder, id('-u'), id('-g'))
  }
  const run = (name, args) => {
    const [command, rest] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary(name), ...args]] : [binary(name), args]
    return execFileSync(...wrap(command, rest, 'load'), { stdio: 'pipe' }).toString()
  }
  const data = join(folder, 'data')
  const port = await freePort()
  const stop = () => {
    live.delete(stop)
    try {
      if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }
  live.add(stop)
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
    // track_planning (bench:profile) times each statement's planning apart from its execution.
    const statements = `-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_utility=off -c pg_stat_statements.track_planning=${trackPlanning ? 'on' : 'off'}`
    const settings = `-p ${port} -h 127.0.0.1 -k ${folder} -F -c synchronous_commit=off -c max_connections=100 ${statements}`
    run('pg_ctl', ['-D', data, '-o', settings, '-l', join(folder, 'log'), '-w', 'start'])
  } catch (error) {
    stop()
    throw new BenchError(`PostgreSQL did not start: ${String(error.stderr ?? error.message).trim().split('\n').slice(-2).join(' | ')}`)
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
  let client
  try {
    const { default: pg } = await import('pg')
    client = new pg.Client({ connectionString: url })
    await client.connect()
    const version = (await client.query('SHOW server_version')).rows[0].server_version
    for (const statement of SCHEMA) await client.query(statement)
    const world = worldRows()
    await client.query(`INSERT INTO world (id, "randomNumber") SELECT * FROM unnest($1::int[], $2::int[])`, [world.map((r) => r[0]), world.map((r) => r[1])])
    await client.query('INSERT INTO fortune (id, message) SELECT * FROM unnest($1::int[], $2::text[])', [FORTUNES.map((r) => r[0]), FORTUNES.map((r) => r[1])])
    for (const statement of BLOG_SCHEMA.postgres) await client.query(statement)
    const blog = blogRows()
    await insertColumns(client, 'users', { name: 'text', email: 'text' }, blog.users)
    await insertColumns(client, 'posts', { title: 'text', body: 'text', published: 'boolean', created_at: 'timestamptz', updated_at: 'timestamptz' }, blog.posts)
    await insertColumns(client, 'comments', { body: 'text', created_at: 'timestamptz' }, blog.comments)
    await client.query('VACUUM ANALYZE')
    await client.query('CREATE EXTENSION pg_stat_statements')
    log(
      `PostgreSQL ${version} on 127.0.0.1:${port} (data in ${folder}), ${WORLD_ROWS.toLocaleString('en-US')} rows of world, ${FORTUNES.length} fortunes, ` +
        `${blog.posts.length.toLocaleString('en-US')} posts of ${blog.users.length} authors with ${blog.comments.length.toLocaleString('en-US')} comments`,
    )
    /** The stored random numbers of these ids, as a Map (for the check that /updates saves what it answers). */
    const readWorld = async (ids) => {
      const { rows } = await client.query('SELECT id, "randomNumber" FROM world WHERE id = ANY($1::int[])', [ids])
      return new Map(rows.map((row) => [row.id, row.randomNumber]))
    }
    /** The statements the servers ran while `work` ran (every server on this database: run one at a time). */
    const countQueries = async (work) => {
      await client.query('SELECT pg_stat_statements_reset()')
      await work()
      const { rows } = await client.query(`SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'`)
      return rows[0].calls
    }
    /**
     * For bench:profile: what PostgreSQL does for a window of load. `start()` resets pg_stat_statements and notes
     * the cluster's CPU time; `stop()` resolves to `{ cpuUs, statements, planUs, execUs, top }`: its CPU time since,
     * the statements run (calls), the time spent planning and executing them, and the statements by calls.
     */
    const window = {
      async start() {
        await client.query('SELECT pg_stat_statements_reset()')
        this.cpu = clusterCpuUs(postmaster)
      },
      async stop() {
        const cpuUs = clusterCpuUs(postmaster) - this.cpu
        const { rows } = await client.query(
          `SELECT query, calls::int, plans::int, total_plan_time * 1000 AS plan_us, total_exec_time * 1000 AS exec_us FROM pg_stat_statements
           WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC`,
        )
        const sum = (key) => rows.reduce((total, row) => total + Number(row[key]), 0)
        return { cpuUs, statements: sum('calls'), plans: sum('plans'), planUs: sum('plan_us'), execUs: sum('exec_us'), top: rows.slice(0, 5) }
      },
    }
    return {
      url,
      version,
      readWorld,
      countQueries,
      window,
      async stop() {
        await client.end().catch(() => {})
        stop()
      },
    }
  } catch (error) {
    await client?.end().catch(() => {})
    stop()
    throw new BenchError(`could not fill the benchmark database: ${error.message}`)
  }
}

/** A row as SQLite stores it, as Fw writes one: booleans as 1/0, times as `YYYY-MM-DD HH:MM:SS.SSS` in UTC. */
const sqliteRow = (row) =>
  Object.values(row).map((value) => (typeof value === 'boolean' ? Number(value) : value instanceof Date ? value.toISOString().replace('T', ' ').slice(0, 23) : value))

/**
 * The same tables in a SQLite file under /tmp, for Fw on its embedded database.
 * Returns `{ url, readWorld(ids), stop() }` (`url` is `sqlite:/tmp/…`, as `DATABASE_URL` takes it).
 */
export function createSqlite() {
  const folder = mkdtempSync('/tmp/fw-bench-sqlite-')
  const file = join(folder, 'bench.sqlite')
  // better-sqlite3 is fw-runtime's own dependency: the one the Fw server opens the file with.
  const Database = createRequire(join(ROOT_DIR, 'runtime', 'package.json'))('better-sqlite3')
  const stop = () => {
    live.delete(stop)
    rmSync(folder, { recursive: true, force: true })
  }
  live.add(stop)
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    for (const statement of SCHEMA) db.exec(statement)
    const insertWorld = db.prepare('INSERT INTO world (id, "randomNumber") VALUES (?, ?)')
    const insertFortune = db.prepare('INSERT INTO fortune (id, message) VALUES (?, ?)')
    for (const statement of BLOG_SCHEMA.sqlite) db.exec(statement)
    const blog = blogRows()
    const insert = (table, rows) => {
      const statement = db.prepare(`INSERT INTO ${table} VALUES (${Object.keys(rows[0]).map(() => '?').join(', ')})`)
      for (const row of rows) statement.run(...sqliteRow(row))
    }
    db.transaction(() => {
      for (const row of worldRows()) insertWorld.run(...row)
      for (const row of FORTUNES) insertFortune.run(...row)
      insert('users', blog.users)
      insert('posts', blog.posts)
      insert('comments', blog.comments)
    })()
  } finally {
    db.close()
  }
  const readWorld = async (ids) => {
    const reader = new Database(file, { readonly: true })
    try {
      const rows = reader.prepare(`SELECT id, "randomNumber" FROM world WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids)
      return new Map(rows.map((row) => [row.id, row.randomNumber]))
    } finally {
      reader.close()
    }
  }
  return { url: `sqlite:${file}`, readWorld, stop }
}
