import { spawn, type ChildProcess } from 'node:child_process'
import { SUPERVISOR_PID } from './supervisorGone.js'

/** A process that dies is started again after this long, so that one that cannot start does not spin. */
const RESTART_DELAY = 1_000

/** Which `fw` command to run beside the web workers, how many of it, and what the log calls one. */
export interface CommandWorkers {
  /** `queue:work`, `schedule:work` */
  readonly command: string
  readonly count: number
  /** `queue worker`, `scheduler` */
  readonly label: string
}

/**
 * `fw start --queue-workers=N` and `--scheduler`: `count` processes of an `fw` command beside the web workers, each
 * replaced when it dies. They run in a process group of their own, so that a Ctrl-C reaches them once, through
 * `stop()`: SIGTERM, which lets each finish its work in flight. SIGTERM or SIGINT to `fw start` stops them at once,
 * beside its web workers; each stops by itself when `fw start` is gone (`onSupervisorGone`).
 *
 * SIGHUP (a deploy) replaces each with a new process, which runs the new build, and lets the old one finish its
 * work in flight; so does a process that exits 0 of its own accord (a queue worker after `fw queue:restart`).
 */
export function superviseCommandWorkers({ command, count, label }: CommandWorkers, cwd: string, env: NodeJS.ProcessEnv): { stop(): Promise<void> } {
  const running = new Set<ChildProcess>()
  /** Processes asked to finish for a reload: their replacement runs already. */
  const retiring = new Set<ChildProcess>()
  let stopping: Promise<void> | undefined
  const fork = () => {
    const child = spawn(process.execPath, [process.argv[1]!, command], { cwd, env: { ...env, [SUPERVISOR_PID]: String(process.pid) }, stdio: 'inherit', detached: true })
    running.add(child)
    child.once('exit', (code, signal) => {
      running.delete(child)
      if (stopping || retiring.delete(child)) return
      if (code === 0) {
        console.log(`[fw] ${label} ${child.pid} exited: starting a new one`)
        fork()
        return
      }
      console.error(`[fw] ${label} ${child.pid} died (${signal ? `signal ${signal}` : `exit code ${code}`}): starting a replacement`)
      setTimeout(() => stopping || fork(), RESTART_DELAY)
    })
  }
  /** Resolves once `child` has exited, asking it to (SIGTERM) when it runs. */
  const ended = (child: ChildProcess) =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once('exit', () => done())
      child.kill('SIGTERM')
    })
  const stop = () => (stopping ??= Promise.all([...running].map(ended)).then(() => undefined))
  const reload = () => {
    if (stopping) return
    const old = [...running].filter((child) => !retiring.has(child))
    console.log(`[fw] SIGHUP: starting ${old.length} new ${label}${old.length === 1 ? '' : 's'}; the old finish their work in flight`)
    for (const child of old) {
      retiring.add(child)
      fork()
      void ended(child)
    }
  }
  process.once('SIGTERM', stop).once('SIGINT', stop)
  process.on('SIGHUP', reload)
  for (let i = 0; i < count; i++) fork()
  return { stop }
}
