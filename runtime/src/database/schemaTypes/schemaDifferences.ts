/** A schema file read back: each table's columns with their types, and the named types beside them. */
interface ReadSchema {
  tables: Map<string, Map<string, string>>
  types: Map<string, string>
}

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
  const before = readSchema(old)
  const after = readSchema(current)
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

function readSchema(text: string): ReadSchema {
  const interfaces = new Map<string, Map<string, string>>()
  const types = new Map<string, string>()
  const tables = new Map<string, Map<string, string>>()
  let current: Map<string, string> | undefined
  let inTables = false
  for (const line of text.split('\n')) {
    const alias = /^export type (\w+) = (.*)$/.exec(line)
    const opened = /^export interface (\w+) \{$/.exec(line)
    const property = /^ +('(?:[^'\\]|\\.)*'|[^:\s]+): (.*)$/.exec(line)
    if (alias) types.set(alias[1]!, alias[2]!)
    else if (opened) interfaces.set(opened[1]!, (current = new Map()))
    else if (line === '  interface Tables {') inTables = true
    else if (line.startsWith('}') || line === '  }') (current = undefined), (inTables = false)
    else if (property && current) current.set(unquote(property[1]!), property[2]!)
    else if (property && inTables) tables.set(unquote(property[1]!), interfaces.get(property[2]!) ?? new Map())
  }
  // The helpers every file declares are not the schema's.
  types.delete('Generated')
  types.delete('GeneratedAlways')
  return { tables, types }
}

function unquote(name: string): string {
  return name.startsWith("'") ? name.slice(1, -1).replace(/\\(.)/g, '$1') : name
}
