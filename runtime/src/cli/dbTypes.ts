import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { SCHEMA_TYPES_FILE } from '../database/schemaTypes/renderSchemaTypes.js'
import type { SchemaTypesResult } from '../database/schemaTypes/writeSchemaTypes.js'
import type { Command } from './Command.js'
import { CommandError } from './Command.js'
import { withDatabase } from './withDatabase.js'

export { SCHEMA_TYPES_FILE }

/** `new column posts.summary, dropped table tags and 3 more`. */
function differences(result: SchemaTypesResult): string {
  const shown = result.differences.slice(0, 5).join(', ')
  const more = result.differences.length - 5
  return more > 0 ? `${shown} and ${more} more` : shown
}

function tables(count: number): string {
  return `${count} ${count === 1 ? 'table' : 'tables'}`
}

/** The line that says what writing the schema types did. */
export function schemaTypesLine(result: SchemaTypesResult): string {
  if (result.state === 'missing') return `Wrote ${SCHEMA_TYPES_FILE}: the types of ${tables(result.tables)}.`
  if (result.state === 'stale') return `Updated ${SCHEMA_TYPES_FILE}: ${differences(result)}.`
  return `${SCHEMA_TYPES_FILE} is up to date (${tables(result.tables)}).`
}

export const dbTypes: Command = {
  name: 'db:types',
  summary: `Write ${SCHEMA_TYPES_FILE}, the types of the database's tables (--check: exit 1 if it is out of date)`,
  usage: 'db:types [--check]',
  details: [
    `Reads the tables of the application's database (DATABASE_URL, else database/database.sqlite) and writes one`,
    `interface per table into ${SCHEMA_TYPES_FILE}, merged into fw-runtime's Tables. fw migrate and its siblings`,
    'rewrite it by themselves in development.',
    '--check  write nothing; exit 1 with what differs when the file is missing or out of date (for CI)',
  ],
  options: { check: { type: 'boolean' } },
  async run({ cwd, values }) {
    const check = values.check === true
    return withDatabase('db:types', cwd, async (db) => {
      const [{ dialectOf }, { sqlitePath }, { writeSchemaTypes }] = await Promise.all([
        import('../database/dialectOf.js'),
        import('../database/createDatabase.js'),
        import('../database/schemaTypes/writeSchemaTypes.js'),
      ])
      // Reading a SQLite file that is not there would create it, empty.
      const file = dialectOf(db) === 'sqlite' ? sqlitePath(process.env.DATABASE_URL) : undefined
      if (file !== undefined && !existsSync(resolve(cwd, file))) {
        throw new CommandError(`fw db:types: the SQLite database ${file} does not exist yet: run fw migrate, which writes ${SCHEMA_TYPES_FILE} too`)
      }
      const result = await writeSchemaTypes(db, cwd, { check })
      if (check && result.state === 'missing') throw new CommandError(`${SCHEMA_TYPES_FILE} is missing: run fw db:types to write it`)
      if (check && result.state === 'stale') throw new CommandError(`${SCHEMA_TYPES_FILE} is out of date: ${differences(result)}; run fw db:types to rewrite it`)
      console.log(schemaTypesLine(result))
      return 0
    })
  },
}
