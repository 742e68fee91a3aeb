import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * A generated file's text (`database/schema.d.ts`, `.fw/api.d.ts`, `openapi.json`), or undefined when there is none
 * yet; any other failure to read it throws.
 *
 * @example
 * ```ts
 * if (readGeneratedFile(file) !== text) replaceGeneratedFile(file, text)
 * ```
 */
export function readGeneratedFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * Writes a generated file whole or not at all: beside it first (a name of this process's own), then renamed over it,
 * so that a watcher, a reader or a failure never sees half of it. Its folder is made when missing.
 */
export function replaceGeneratedFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, text)
    renameSync(temporary, file)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}
