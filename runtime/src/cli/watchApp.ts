import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs'
import { join, relative, sep } from 'node:path'

/**
 * Folders whose files never restart the server, wherever they are, and which are not even watched: dependencies,
 * build output, what the app writes while it runs (storage, uploads, logs), the tests (the server never imports
 * them), and any folder whose name begins with a dot (.git, .vscode, .idea, caches).
 */
const IGNORED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'coverage', 'storage', 'uploads', 'logs', 'tmp', 'tests'])
/** The app's code and configuration, as Node and tsx load them. */
const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs|json)$/
const TEST = /\.(?:test|spec)\.[cm]?[jt]sx?$/
/** Type declarations (database/schema.d.ts, which fw migrate rewrites): types only, nothing the server runs. */
const DECLARATIONS = /\.d\.[cm]?ts$/

function ignoredFolder(name: string): boolean {
  return name.startsWith('.') || IGNORED_FOLDERS.has(name)
}

/**
 * Whether a change to this file (relative to the application's root) restarts `fw serve`: the app's code and
 * configuration (`.ts`, `.tsx`, `.mts`, `.cts`, `.js`, `.jsx`, `.mjs`, `.cjs`, `.json`) and the root's `.env`, as
 * Laravel Octane's `--watch` and AdonisJS's dev server restart for code and `.env` only. Never a file in an ignored
 * folder, a test, a dotfile (editor swap and lock files: `.web.ts.swp`, `.#web.ts`), or anything else (uploads,
 * SQLite databases and their journals, logs, CSS and images, `web.ts~` backups).
 *
 * @example
 * ```ts
 * restartsFor('routes/web.ts')             // true
 * restartsFor('storage/uploads/data.json') // false
 * ```
 */
export function restartsFor(path: string): boolean {
  const parts = path.split(/[\\/]/)
  const name = parts.pop()!
  if (parts.some(ignoredFolder)) return false
  if (name === '.env') return parts.length === 0
  return !name.startsWith('.') && SOURCE.test(name) && !TEST.test(name) && !DECLARATIONS.test(name)
}

/** A running watch of an application's folders (see `watchApp`). */
export interface AppWatcher {
  /** The folders watched, relative to the root (`.` for the root itself), sorted. */
  folders(): string[]
  close(): void
}

/**
 * Calls `onChange` with the path (relative to `root`) of each change that `restartsFor` counts. One `fs.watch` per
 * folder, for the folders that are not ignored only: a recursive watch would put watchers on node_modules and the
 * app's uploads too. A folder that appears is watched from then on, and a change is reported when it arrives
 * holding code already (`git checkout`, a generator making `App/Models/`), since its files were written before its
 * watcher existed.
 *
 * @example
 * ```ts
 * const watcher = watchApp(process.cwd(), (file) => console.log(`${file} changed`))
 * watcher.close()
 * ```
 */
export function watchApp(root: string, onChange: (file: string) => void): AppWatcher {
  const watchers = new Map<string, FSWatcher>()

  const add = (folder: string): string | undefined => {
    if (watchers.has(folder)) return undefined
    let watcher: FSWatcher
    try {
      watcher = watch(folder, (_event, name) => name && changed(folder, join(folder, name.toString())))
    } catch {
      return undefined
    }
    watcher.on('error', () => remove(folder))
    watchers.set(folder, watcher)
    // The first file of the app's code found below it: a new folder's files may predate its watcher.
    let code: string | undefined
    let entries
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      return undefined
    }
    for (const entry of entries) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) {
        if (!ignoredFolder(entry.name)) code = add(path) ?? code
      } else if (restartsFor(relative(root, path))) {
        code ??= relative(root, path)
      }
    }
    return code
  }

  const remove = (folder: string) => {
    for (const [path, watcher] of watchers) {
      if (path === folder || path.startsWith(folder + sep)) {
        watcher.close()
        watchers.delete(path)
      }
    }
  }

  const changed = (folder: string, path: string) => {
    const file = relative(root, path)
    let isFolder = false
    try {
      isFolder = statSync(path).isDirectory()
    } catch {
      // Gone: a removed folder of code restarts, as its removed files would.
      if (watchers.has(path)) {
        remove(path)
        onChange(file)
        return
      }
    }
    if (isFolder) {
      const name = path.slice(folder.length + 1)
      if (ignoredFolder(name) || watchers.has(path)) return
      const code = add(path)
      if (code !== undefined) onChange(code)
      return
    }
    if (restartsFor(file)) onChange(file)
  }

  add(root)
  return {
    folders: () => [...watchers.keys()].map((folder) => relative(root, folder) || '.').sort(),
    close: () => remove(root),
  }
}
