import { spawn } from 'node:child_process'
import { dim, green } from 'kolorist'
import type { PackageManager } from './args.js'
import { CliError } from './CliError.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`
}

/**
 * Runs `<pm> install` in the application, with a spinner and the elapsed time on a terminal and a
 * plain line otherwise. The installer's own output is kept and shown only if it fails.
 */
export function installDependencies(pm: PackageManager, dir: string, shownDir: string): Promise<void> {
  const started = Date.now()
  const label = `Installing dependencies with ${pm}`
  const tty = process.stdout.isTTY === true
  let frame = 0
  const spinner = tty
    ? setInterval(() => process.stdout.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}… ${dim(seconds(started))}`), 80)
    : undefined
  if (!tty) console.log(`${label}…`)

  const child = spawn(pm, ['install'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-16_000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)

  return new Promise((resolve, reject) => {
    const finish = (failure?: string) => {
      clearInterval(spinner)
      if (tty) process.stdout.write('\r\x1b[2K')
      if (!failure) {
        console.log(`${green('✔')} Installed dependencies with ${pm} in ${seconds(started)}`)
        resolve()
        return
      }
      const tail = output.trim().split('\n').slice(-25).join('\n')
      if (tail) console.error(dim(tail))
      reject(new CliError(`${failure}; the application is in ${shownDir}: fix the cause, then run "${pm} install" there`))
    }
    child.once('error', (error) => finish(`Could not run ${pm} install (${error.message})`))
    child.once('close', (code, signal) => {
      if (code === 0) finish()
      else finish(`${pm} install failed (${signal ? `signal ${signal}` : `exit code ${code}`})`)
    })
  })
}
