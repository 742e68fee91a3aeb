import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/**
 * The application's root folder: the nearest folder with a `package.json` above `from`. By default `from` is
 * the folder of the script node was started with (`dist/public/index.js` → the app), so `.env`, the SQLite
 * file and `public/` are found wherever the process was started from; the working directory when that
 * script lives in `node_modules` (a test runner) or when no `package.json` is found.
 *
 * @example
 * ```ts
 * const css = join(appRoot(), 'public/css/app.css')
 * ```
 */
export function appRoot(from?: string): string {
  const start = from ?? entryFolder()
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder
    if (dirname(folder) === folder) return from ?? process.cwd()
  }
}

function entryFolder(): string {
  const entry = process.argv[1]
  if (!entry || /[\\/]node_modules[\\/]/.test(entry)) return process.cwd()
  return dirname(resolve(entry))
}
