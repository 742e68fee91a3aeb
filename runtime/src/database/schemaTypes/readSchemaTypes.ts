/** A schema file read back: each table's columns with their types, and the named types beside them. */
export interface SchemaTypes {
  /** Table name → column name → its type as the file writes it (`Generated<number>`, `string | null`). */
  tables: Map<string, Map<string, string>>
  /** The named types the file declares (`Timestamp`, an enum's union of labels), by name. */
  types: Map<string, string>
}

/**
 * The tables, columns and named types of a `database/schema.d.ts` as `renderSchemaTypes` writes it, read from its text:
 * for what compares it (`schemaDifferences`) and what writes code from it (`fw make:factory`).
 *
 * @example
 * ```ts
 * readSchemaTypes(readFileSync('database/schema.d.ts', 'utf8')).tables.get('posts')?.get('title') // 'string'
 * ```
 */
export function readSchemaTypes(text: string): SchemaTypes {
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
