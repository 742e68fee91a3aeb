import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url))
export const ROOT_DIR = join(BENCH_DIR, '..')

/** Thrown for a setup step that failed, with a message fit to print as one line. */
export class BenchError extends Error {}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
  if (result.error) throw new BenchError(`${command} ${args.join(' ')} could not start: ${result.error.message}`)
  if (result.status !== 0) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-5).join(' | ')
    throw new BenchError(`${command} ${args.join(' ')} failed (exit ${result.status}): ${tail}`)
  }
}

/** The peers live in bench/package.json so that the root install stays lean: installed here on first use. */
export function ensurePeers(log) {
  const { dependencies } = JSON.parse(readFileSync(join(BENCH_DIR, 'package.json'), 'utf8'))
  const missing = Object.keys(dependencies).filter((name) => !existsSync(join(BENCH_DIR, 'node_modules', name, 'package.json')))
  if (missing.length === 0) return
  log(`Installing the peers into bench/node_modules (missing: ${missing.join(', ')})`)
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], BENCH_DIR)
}

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** Fw is measured as an app runs it: the compiled runtime/dist. Builds it when missing or older than its source. */
export function ensureRuntimeBuilt(log) {
  const dist = join(ROOT_DIR, 'runtime', 'dist', 'index.js')
  const stale = !existsSync(dist) || statSync(dist).mtimeMs < newestMtime(join(ROOT_DIR, 'runtime', 'src'))
  if (!stale) return
  log('Building fw-runtime (runtime/dist is missing or older than runtime/src)')
  run('npm', ['run', 'build', '-w', 'fw-runtime'], ROOT_DIR)
}

/** wrk when it is installed (it can drive far more load from one core), else autocannon from bench/node_modules. */
export function loadTool(preferred) {
  if (preferred !== 'autocannon') {
    const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' })
    if (!probe.error) {
      const version = /wrk (\S+)/.exec(`${probe.stdout}${probe.stderr}`)?.[1] ?? '?'
      return { name: 'wrk', version }
    }
    if (preferred === 'wrk') throw new BenchError('wrk is not installed: apt-get install wrk, or leave out --tool')
  }
  const version = JSON.parse(readFileSync(join(BENCH_DIR, 'node_modules', 'autocannon', 'package.json'), 'utf8')).version
  return { name: 'autocannon', version }
}

/**
 * The server gets core 0, the load generator (and this harness) core 1, when `taskset` exists and the
 * machine has two cores or more; otherwise nothing is pinned and the results say so.
 */
export function pinning(enabled) {
  if (!enabled || availableParallelism() < 2 || spawnSync('taskset', ['--version']).error) {
    return { pinned: false, wrap: (command, args) => [command, args] }
  }
  spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })
  return {
    pinned: true,
    serverCpu: 0,
    loadCpu: 1,
    wrap: (command, args, role) => ['taskset', ['-c', role === 'server' ? '0' : '1', command, ...args]],
  }
}

/** The commit measured, with `+dirty` when runtime/src or bench/ has uncommitted changes. */
export function gitRevision() {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT_DIR, encoding: 'utf8' })
  if (head.status !== 0) return null
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'runtime/src', 'bench', ':(exclude)bench/results'], { cwd: ROOT_DIR, encoding: 'utf8' })
  return head.stdout.trim() + (dirty.stdout.trim() ? '+dirty' : '')
}
