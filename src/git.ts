import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'

export type GitResult = 'committed' | 'inside-repository' | 'no-git' | 'commit-failed'

function git(dir: string, args: string[]): { ok: boolean; message: string } {
  const result = spawnSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const message = (result.error?.message ?? result.stderr ?? '').trim().split('\n')[0] ?? ''
  return { ok: result.status === 0, message }
}

/**
 * `git init` and a first commit of everything, unless the folder already sits inside a repository.
 * A commit that fails (no git identity configured, a hook) removes the new repository again, so
 * that the user never finds a half-made one.
 */
export function initRepository(dir: string): GitResult {
  if (!git(dir, ['--version']).ok) return 'no-git'
  if (git(dir, ['rev-parse', '--is-inside-work-tree']).ok) return 'inside-repository'
  const steps = [
    ['init', '--quiet'],
    ['add', '--all'],
    ['commit', '--quiet', '--no-verify', '--message', 'Initial commit from create-fw-app'],
  ]
  for (const step of steps) {
    if (!git(dir, step).ok) {
      rmSync(join(dir, '.git'), { recursive: true, force: true })
      return 'commit-failed'
    }
  }
  return 'committed'
}
