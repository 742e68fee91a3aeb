import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { appRoot } from '../config/appRoot.js'
import { environment } from '../config/environment.js'
import { dialectOf } from '../database/dialectOf.js'

/** One line of an overview's "System" list. */
export interface SystemFact {
  label: string
  value: string
}

/**
 * What the running application is: its name and version, fw-runtime's version, Node.js, the database, the
 * environment (`production` under `fw start`, see `environment()`) and the uptime. The application's
 * package.json is read here, at run time, from its root: a compiled application must not import it, or
 * `tsc` copies it into `dist/`, where its `imports` would point at `dist/dist/`.
 *
 * @example
 * ```ts
 * systemInfo(db()) // [{ label: 'Application', value: 'my-app 0.1.0' }, { label: 'fw-runtime', value: '0.1.0' }, …]
 * ```
 */
export function systemInfo(db: Kysely<any>, root: string = appRoot()): SystemFact[] {
  const app = manifest(join(root, 'package.json'))
  return [
    { label: 'Application', value: [app.name, app.version].filter(Boolean).join(' ') || 'unnamed' },
    { label: 'fw-runtime', value: runtimeVersion() },
    { label: 'Node.js', value: process.version },
    { label: 'Database', value: dialectOf(db) === 'postgres' ? 'PostgreSQL' : 'SQLite' },
    { label: 'Environment', value: environment() },
    { label: 'Uptime', value: duration(process.uptime()) },
  ]
}

/** A package.json's name and version; nothing when it is missing or unreadable. */
function manifest(file: string): { name?: string; version?: string } {
  try {
    const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    return { name: typeof name === 'string' ? name : undefined, version: typeof version === 'string' ? version : undefined }
  } catch {
    return {}
  }
}

function runtimeVersion(): string {
  // The package refers to itself by name (its `exports` lists ./package.json): the same from src/ and dist/.
  return (createRequire(import.meta.url)('fw-runtime/package.json') as { version: string }).version
}

/** `3725` → `1 h 2 min` */
function duration(seconds: number): string {
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  if (days > 0) return `${days} d ${hours} h`
  if (hours > 0) return `${hours} h ${minutes} min`
  if (minutes > 0) return `${minutes} min`
  return `${Math.floor(seconds)} s`
}
