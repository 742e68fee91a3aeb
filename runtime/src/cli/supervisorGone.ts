/**
 * For a process that `fw start` runs beside its web workers (`--queue-workers`, `--scheduler`): they run in a process
 * group of their own, so no signal of the terminal reaches them, and `fw start` killed with -9 (or crashed) would
 * leave them running the old build for ever. Calls `gone` once when the process that started them is no longer their
 * parent; nothing for a process started otherwise. Returns what ends the watch.
 *
 * @example
 * ```ts
 * const unwatch = onSupervisorGone(() => worker.stop())
 * await worker.run()
 * unwatch()
 * ```
 */
export function onSupervisorGone(gone: () => void): () => void {
  const supervisor = Number(process.env[SUPERVISOR_PID])
  if (!supervisor) return () => undefined
  const timer = setInterval(() => {
    if (process.ppid === supervisor) return
    clearInterval(timer)
    gone()
  }, 1_000)
  timer.unref()
  return () => clearInterval(timer)
}

/** The variable `fw start` gives the processes it runs beside its web workers: its own pid. */
export const SUPERVISOR_PID = 'FW_SUPERVISOR_PID'
