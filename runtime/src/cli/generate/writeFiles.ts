import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { CommandError } from '../Command.js'

export interface GeneratedFile {
  /** Relative to the application's root, with forward slashes. */
  path: string
  content: string
}

/**
 * Writes a generator's files all or nothing: every path is checked first (inside the application,
 * not already there unless `force`), and a write that fails removes the files written before it.
 */
export function writeFiles(root: string, files: readonly GeneratedFile[], force: boolean): void {
  for (const file of files) {
    const target = join(root, file.path)
    const inside = relative(root, target)
    if (inside.startsWith('..') || isAbsolute(inside)) throw new CommandError(`${file.path} would be written outside the application`)
    if (!force && existsSync(target)) throw new CommandError(`${file.path} already exists; use --force to overwrite it`)
  }
  const written: string[] = []
  try {
    for (const file of files) {
      const target = join(root, file.path)
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, file.content, { flag: force ? 'w' : 'wx' })
      written.push(target)
    }
  } catch (error) {
    for (const target of written) rmSync(target, { force: true })
    throw new CommandError(`Could not write the files: ${(error as Error).message}`)
  }
}
