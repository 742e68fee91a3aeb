import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from './server-process.mjs'
import { BenchError } from './setup.mjs'

const REDIS_SERVER = '/usr/bin/redis-server'
const START_TIMEOUT_MS = 10_000

/** The stops of the Redis servers started and not yet stopped, for `stopRedisServers`. */
const live = new Set()

/**
 * Stops every Redis server this process started (an interrupted run must not leave one behind): SIGTERM to each PID at
 * once, without waiting for it to exit, so that the run exits before it starts anything else.
 */
export function stopRedisServers() {
  for (const stop of live) void stop({ wait: false })
}

/** Whether a Redis answers PING on the port. */
function ping(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setTimeout(500, () => socket.destroy())
    socket.on('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      answer += chunk
      if (answer.includes('\r\n')) socket.end()
    })
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(answer.startsWith('+PONG')))
  })
}

/**
 * Starts a throwaway Redis for the cache suite from /usr/bin/redis-server, on 127.0.0.1 and a free port, with no
 * persistence (`--save '' --appendonly no`: the data is thrown away), pinned with `wrap` to the load generator's core
 * as the db suite's PostgreSQL is. Resolves to `{ url, version, pid, stop() }` once it answers PING; `stop()` ends it by
 * its PID (SIGTERM, SIGKILL after 5 s) and removes its folder.
 */
export async function startRedis({ wrap, log }) {
  if (!existsSync(REDIS_SERVER)) throw new BenchError(`${REDIS_SERVER} is not installed (apt-get install -y redis-server): the cache suite needs it`)
  const version = /v=(\S+)/.exec(execFileSync(REDIS_SERVER, ['--version']).toString())?.[1] ?? '?'
  const folder = mkdtempSync('/tmp/fw-bench-redis-')
  const port = await freePort()
  const settings = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder, '--daemonize', 'no', '--loglevel', 'warning']
  const child = spawn(...wrap(REDIS_SERVER, settings, 'load'), { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)))
  let exited = false
  const exit = new Promise((resolve) => child.once('exit', () => resolve((exited = true))))
  const stop = async ({ wait = true } = {}) => {
    live.delete(stop)
    if (!exited && !wait) child.kill('SIGTERM')
    if (!exited && wait) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exit
      clearTimeout(timer)
    }
    rmSync(folder, { recursive: true, force: true })
  }
  live.add(stop)
  const until = performance.now() + START_TIMEOUT_MS
  while (!(await ping(port))) {
    if (exited || performance.now() > until) {
      await stop()
      throw new BenchError(`Redis did not start on 127.0.0.1:${port}: ${stderr.trim().split('\n').slice(-2).join(' | ') || 'no answer to PING'}`)
    }
    await sleep(20)
  }
  // taskset execs redis-server: the child's PID is Redis's own.
  log(`Redis ${version} on 127.0.0.1:${port} (pid ${child.pid}, no persistence)`)
  return { url: `redis://127.0.0.1:${port}`, version, pid: child.pid, stop }
}
