import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { readGeneratedFile, replaceGeneratedFile } from '../../cli/generate/generatedFile.js'
import { introspectSchema } from './introspectSchema.js'
import { renderSchemaTypes, SCHEMA_TYPES_FILE } from './renderSchemaTypes.js'
import { schemaDifferences } from './schemaDifferences.js'

/** What `writeSchemaTypes` found, and did unless asked only to check. */
export interface SchemaTypesResult {
  /** `missing`: there was no file; `stale`: it said something else; `current`: it said what the database says. */
  state: 'missing' | 'stale' | 'current'
  /** How the file differs from the database, in words (`new column posts.summary`); empty unless stale. */
  differences: string[]
  /** How many tables (and views) the database has, Fw's own left out. */
  tables: number
}

/**
 * Brings `database/schema.d.ts` of the application in `root` up to date with the database's tables: written
 * only when its content changes, whole or not at all (a temporary file renamed over it). With `check`, it only
 * says whether the file is up to date, and writes nothing.
 *
 * @example
 * ```ts
 * const { state, differences } = await writeSchemaTypes(db, process.cwd())
 * if (state === 'stale') console.log(`Updated database/schema.d.ts: ${differences.join(', ')}`)
 * ```
 */
export async function writeSchemaTypes(db: Kysely<any>, root: string, { check = false } = {}): Promise<SchemaTypesResult> {
  const schema = await introspectSchema(db)
  const text = renderSchemaTypes(schema)
  const file = join(root, SCHEMA_TYPES_FILE)
  const old = readGeneratedFile(file)
  const result: SchemaTypesResult = {
    state: old === undefined ? 'missing' : old === text ? 'current' : 'stale',
    differences: old === undefined ? [] : schemaDifferences(old, text),
    tables: schema.tables.length,
  }
  if (check || result.state === 'current') return result
  replaceGeneratedFile(file, text)
  return result
}
