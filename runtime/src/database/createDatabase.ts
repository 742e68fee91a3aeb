import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import { appRoot } from '../config/appRoot.js'
import type { Tables } from './Tables.js'

/** Where the embedded SQLite database lives when `DATABASE_URL` is not set. */
export const DEFAULT_SQLITE_PATH = 'database/database.sqlite'

const require = createRequire(import.meta.url)

/** pg type ids whose values Fw keeps as the strings PostgreSQL sends, as SQLite does. */
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184
const DATE = 1082

/**
 * Opens the database named by a URL: `postgres://…` (or `postgresql://…`) for PostgreSQL,
 * `sqlite:path` or `file:path` for a SQLite file, nothing for `database/database.sqlite`.
 * Drivers load and files are created on the first query, not here.
 *
 * @example
 * ```ts
 * const db = createDatabase(process.env.DATABASE_URL)
 * ```
 */
export function createDatabase<DB = Tables>(url: string | undefined = undefined, root = appRoot()): Kysely<DB> {
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    return new Kysely<DB>({
      dialect: new PostgresDialect({
        pool: async () => {
          const pg = require('pg') as typeof import('pg')
          const parseAsText = (value: string) => value
          return new pg.Pool({
            connectionString: url,
            types: {
              getTypeParser: ((id: number, format?: 'text' | 'binary') =>
                id === TIMESTAMP || id === TIMESTAMPTZ || id === DATE
                  ? parseAsText
                  : pg.types.getTypeParser(id, format)) as typeof pg.types.getTypeParser,
            },
          })
        },
      }),
    })
  }
  const file = resolve(root, sqlitePath(url))
  return new Kysely<DB>({
    dialect: new SqliteDialect({
      database: async () => {
        const BetterSqlite3 = require('better-sqlite3') as typeof import('better-sqlite3')
        mkdirSync(dirname(file), { recursive: true })
        const database = new BetterSqlite3(file)
        // WAL lets `fw serve` read while `fw migrate` writes; foreign keys are off in SQLite by default.
        database.pragma('journal_mode = WAL')
        database.pragma('foreign_keys = ON')
        return database
      },
    }),
  })
}

function sqlitePath(url: string | undefined): string {
  if (!url) return DEFAULT_SQLITE_PATH
  const match = /^(?:sqlite|file):(?:\/\/)?(.+)$/.exec(url)
  if (!match?.[1]) {
    throw new Error(`Unsupported DATABASE_URL "${url}": use postgres://user:password@host:port/name or sqlite:path/to/file.sqlite`)
  }
  return match[1]
}
