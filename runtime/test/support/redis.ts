import { spawn, type ChildProcess } from 'node:child_process'
import { createConnection } from 'node:net'
import { freePort } from './freePort.js'

/** A Redis server started for a test: its URL, and ways to stop, pause or restart it as an outage would. */
export interface TestRedis {
  url: string
  port: number
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void
  /** Lets a paused server go on (SIGCONT). */
  resume(): void
  /** Kills the server (SIGKILL) and starts a new one on the same port, empty. */
  restart(): Promise<void>
  /** Kills the server (SIGKILL) and leaves it down; `start()` brings it back on the same port. */
  kill(): Promise<void>
  start(): Promise<void>
}

/**
 * Starts a throwaway Redis on 127.0.0.1 and a free port, without persistence (`--save '' --appendonly no`), and waits
 * until it answers PING.
 */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort()
  let server: ChildProcess | undefined
  const start = async () => {
    server = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' })
    await answersPing(port)
  }
  const kill = async (signal: NodeJS.Signals) => {
    const running = server
    server = undefined
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGCONT')
    running.kill(signal)
    await exited
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => kill('SIGTERM'),
    pause: () => server?.kill('SIGSTOP'),
    resume: () => server?.kill('SIGCONT'),
    restart: async () => {
      await kill('SIGKILL')
      await start()
    },
    kill: () => kill('SIGKILL'),
    start,
  }
}

/** Resolves once a server on `port` answers PING with PONG, within 10 s. */
async function answersPing(port: number): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if (await ping(port)) return
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within 10 s`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    let answer = ''
    socket.setTimeout(1000, () => socket.destroy())
    socket.on('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      answer += chunk.toString()
      if (answer.includes('\r\n')) socket.end()
    })
    socket.on('close', () => resolve(answer.startsWith('+PONG')))
    socket.on('error', () => undefined)
  })
}
