import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { freePort } from './freePort.js'

/** A MariaDB server started for a test: a database `fw` on it, and `stop()` which also removes its data. */
export interface TestMariadb {
  /** `mysql://root@127.0.0.1:<port>/fw`: a database in utf8mb4 with byte-exact comparisons, as SQLite and PostgreSQL compare. */
  url: string
  /** Runs one statement as root on a connection of its own (KILL, GRANT, inspection), and gives its rows. */
  query<R = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<R[]>
  /** Shuts the server down (cleanly, open sessions are cut) and keeps its data, as an outage would. */
  pause(): Promise<void>
  /** Starts a paused server again, on the same port. */
  resume(): Promise<void>
  /** Stops the server's process (SIGSTOP) without closing anything: a host that stopped answering. */
  freeze(): void
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void
  stop(): Promise<void>
}

function binary(name: string): string {
  for (const folder of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    if (existsSync(join(folder, name))) return join(folder, name)
  }
  throw new Error(`MariaDB's ${name} is not installed: apt-get install -y mariadb-server-core mariadb-client-core (scripts/setup.sh does it)`)
}

const mysql2 = createRequire(import.meta.url)('mysql2') as typeof import('mysql2')

/**
 * Starts a throwaway MariaDB on 127.0.0.1 and a free port, data under /tmp, no configuration file of the machine's
 * (`--no-defaults`), root without a password, and creates the database `fw`. About 2 s: one server per test file.
 * `options` are more of mariadbd's, such as `--innodb-lock-wait-timeout=1`.
 */
export async function startMariadb(options: string[] = []): Promise<TestMariadb> {
  const mariadbd = binary('mariadbd')
  const installDb = binary('mariadb-install-db')
  // The socket's path must stay under ~100 characters.
  const folder = mkdtempSync('/tmp/fw-my-')
  const data = join(folder, 'data')
  const asRoot = userInfo().uid === 0 ? ['--user=root'] : []
  const port = await freePort()
  try {
    execFileSync(
      installDb,
      ['--no-defaults', ...asRoot, `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve', '--innodb-log-file-size=8M'],
      { stdio: 'pipe' },
    )
  } catch (error) {
    rmSync(folder, { recursive: true, force: true })
    throw new Error(`mariadb-install-db failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`)
  }
  const args = [
    '--no-defaults',
    ...asRoot,
    `--datadir=${data}`,
    `--socket=${join(folder, 'mysqld.sock')}`,
    `--pid-file=${join(folder, 'mysqld.pid')}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    '--skip-networking=0',
    '--skip-name-resolve',
    '--skip-log-bin',
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_nopad_bin',
    // A zone that is not UTC: Fw's sessions must not take the server's.
    '--default-time-zone=+05:45',
    '--innodb-log-file-size=8M',
    '--innodb-buffer-pool-size=32M',
    '--innodb-flush-log-at-trx-commit=0',
    '--innodb-doublewrite=0',
    `--log-error=${join(folder, 'error.log')}`,
    ...options,
  ]
  const root = `mysql://root@127.0.0.1:${port}`
  let server: ChildProcess | undefined

  async function start(): Promise<void> {
    const child = spawn(mariadbd, args, { stdio: 'ignore' })
    server = child
    let exited = false
    child.once('exit', () => (exited = true))
    const until = Date.now() + 30_000
    for (;;) {
      if (await answers(root)) return
      if (exited || Date.now() > until) {
        const log = existsSync(join(folder, 'error.log')) ? readFileSync(join(folder, 'error.log'), 'utf8').slice(-2000) : ''
        if (!exited) child.kill('SIGKILL')
        throw new Error(`mariadbd did not start on 127.0.0.1:${port}:\n${log}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async function shutDown(): Promise<void> {
    const child = server
    server = undefined
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGCONT')
    child.kill('SIGTERM')
    await exited
  }

  async function query<R>(sql: string, parameters: unknown[] = []): Promise<R[]> {
    const connection = mysql2.createConnection({ uri: `${root}/`, ...(sql.startsWith('create database') ? {} : { database: 'fw' }) })
    try {
      const [rows] = await connection.promise().query(sql, parameters)
      return rows as R[]
    } finally {
      connection.destroy()
    }
  }

  try {
    await start()
    await query('create database fw character set utf8mb4 collate utf8mb4_nopad_bin')
  } catch (error) {
    await shutDown()
    rmSync(folder, { recursive: true, force: true })
    throw error
  }
  return {
    url: `${root}/fw`,
    query,
    pause: shutDown,
    resume: start,
    freeze: () => void server?.kill('SIGSTOP'),
    thaw: () => void server?.kill('SIGCONT'),
    async stop() {
      try {
        await shutDown()
      } finally {
        rmSync(folder, { recursive: true, force: true })
      }
    },
  }
}

/** Whether the server takes a login and answers a query (`mariadb-admin ping` answers even when logins fail). */
async function answers(url: string): Promise<boolean> {
  const connection = mysql2.createConnection({ uri: `${url}/`, connectTimeout: 1000 })
  connection.on('error', () => {})
  try {
    await connection.promise().query('select 1')
    return true
  } catch {
    return false
  } finally {
    connection.destroy()
  }
}
