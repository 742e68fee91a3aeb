import { spawn } from 'node:child_process'

/**
 * Runs `fw <argv>` as a child process in the app's folder, its output going where the scheduler's goes, and
 * resolves to its exit code (1 when a signal ended it). The `fw` is the one running this process
 * (`process.argv[1]`), with the same Node flags, as `fw start` starts its workers.
 *
 * @example
 * ```ts
 * const code = await runFwCommand(['digest:send', '42', '--queue'], '/srv/app')
 * ```
 */
export function runFwCommand(argv: readonly string[], cwd: string, fw = process.argv[1]!): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fw, ...argv], { cwd, stdio: 'inherit' })
    child.once('error', reject)
    child.once('exit', (code) => resolve(code ?? 1))
  })
}
