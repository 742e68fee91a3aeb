import { readSchemaTypes } from './readSchemaTypes.js'

/**
 * What the database's schema has that a schema file does not say, in words, from the file's text (`old`) to the
 * database's (`current`): `new column posts.summary`, `dropped table tags`,
 * `posts.views is number | null, was number`. A file whose tables say the same but whose text differs (edited by hand,
 * or written by another Fw) gets the first line that differs.
 *
 * @example
 * ```ts
 * schemaDifferences(readFileSync('database/schema.d.ts', 'utf8'), renderSchemaTypes(schema))
 * // ['new column posts.summary']
 * ```
 */
export function schemaDifferences(old: string, current: string): string[] {
  if (old === current) return []
  const before = readSchemaTypes(old)
  const after = readSchemaTypes(current)
  const differences: string[] = []
  for (const [name, type] of after.types) {
    const was = before.types.get(name)
    if (was !== undefined && was !== type) differences.push(`type ${name} is ${type}, was ${was}`)
  }
  for (const [table, columns] of after.tables) {
    const had = before.tables.get(table)
    if (!had) {
      differences.push(`new table ${table}`)
      continue
    }
    for (const [column, type] of columns) {
      const was = had.get(column)
      if (was === undefined) differences.push(`new column ${table}.${column}`)
      else if (was !== type) differences.push(`${table}.${column} is ${type}, was ${was}`)
    }
    for (const column of had.keys()) if (!columns.has(column)) differences.push(`dropped column ${table}.${column}`)
  }
  for (const table of before.tables.keys()) if (!after.tables.has(table)) differences.push(`dropped table ${table}`)
  if (differences.length > 0) return differences
  const oldLines = old.split('\n')
  const currentLines = current.split('\n')
  const first = currentLines.findIndex((text, index) => text !== oldLines[index])
  // None in the database's text: the file has more lines than it.
  return [`changed text from line ${(first === -1 ? currentLines.length : first) + 1}`]
}
