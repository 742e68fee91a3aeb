import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { freePort } from './freePort.js'

/** A PostgreSQL server started for a test: its URL, and `stop()` which also removes its data. */
export interface TestPostgres {
  url: string
  stop(): void
  /** Shuts the server down (fast mode: open sessions are cut) and keeps its data, as an outage would. */
  pause(): void
  /** Starts a paused server again, on the same port. */
  resume(): void
}

function binary(name: string): string {
  for (const folder of ['/usr/local/bin', '/usr/bin']) {
    if (existsSync(join(folder, name))) return join(folder, name)
  }
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : []
  for (const version of versions) {
    const path = `/usr/lib/postgresql/${version}/bin/${name}`
    if (existsSync(path)) return path
  }
  throw new Error(`PostgreSQL's ${name} is not installed (apt-get install -y postgresql)`)
}

/**
 * Starts a throwaway PostgreSQL on 127.0.0.1 and a free port, data under /tmp. The server binaries
 * refuse to run as root, so as root they run as the `postgres` user.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const folder = mkdtempSync('/tmp/fw-pg-')
  const asRoot = userInfo().uid === 0
  if (asRoot) chownSync(folder, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()))
  const run = (name: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', binary(name), ...args], { stdio: 'pipe' }) : execFileSync(binary(name), args, { stdio: 'pipe' })
  const data = join(folder, 'data')
  const port = await freePort()
  const startServer = () => run('pg_ctl', ['-D', data, '-o', `-p ${port} -h 127.0.0.1 -k ${folder} -F`, '-l', join(folder, 'log'), '-w', 'start'])
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
    startServer()
  } catch (error) {
    rmSync(folder, { recursive: true, force: true })
    throw error
  }
  let paused = false
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
      paused = true
    },
    resume() {
      startServer()
      paused = false
    },
    stop() {
      if (paused) return rmSync(folder, { recursive: true, force: true })
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
      } finally {
        rmSync(folder, { recursive: true, force: true })
      }
    },
  }
}
