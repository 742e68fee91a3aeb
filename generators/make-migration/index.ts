import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type Command } from '../../runtime/src/cli/Command.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles, type GeneratedFile } from '../../runtime/src/cli/generate/writeFiles.js'

const FOLDER = 'database/migrations'

/**
 * The migration file for a snake_case name: `create_<table>_table` gets a create-table stub,
 * `add_<column>_to_<table>[_table]` an alter-table stub, anything else an empty up/down pair.
 */
export function migrationFile(cwd: string, name: string, now = new Date()): GeneratedFile {
  if (!/^[a-z][a-z0-9_]*$/.test(name) || name.length > 200) {
    throw new CommandError(`"${name}" is not a valid migration name: use snake_case letters, digits and _, such as create_posts_table`)
  }
  const files = existing(cwd)
  if (files.some((file) => file.replace(/^\d{14}_/, '').replace(/\.[mc]?[jt]s$/, '') === name)) {
    throw new CommandError(`A migration named ${name} already exists in ${FOLDER}`)
  }
  // Two migrations made in the same second must still run in the order they were made.
  const latest = files.map((file) => /^(\d{14})_/.exec(file)?.[1]).filter((stamp) => stamp !== undefined).sort().at(-1)
  let stamp = timestamp(now)
  if (latest && stamp <= latest) stamp = timestamp(new Date(parseStamp(latest) + 1000))
  const create = /^create_([a-z0-9_]+?)_table$/.exec(name)
  const alter = /^add_([a-z0-9_]+?)_to_([a-z0-9_]+?)(?:_table)?$/.exec(name)
  const content = create
    ? stub('make-migration', 'create.stub', { table: create[1]! })
    : alter
      ? stub('make-migration', 'alter.stub', { column: alter[1]!, table: alter[2]! })
      : stub('make-migration', 'blank.stub', {})
  return { path: `${FOLDER}/${stamp}_${name}.ts`, content }
}

function existing(cwd: string): string[] {
  try {
    return readdirSync(join(cwd, FOLDER))
  } catch {
    return []
  }
}

function parseStamp(stamp: string): number {
  const [year, month, day, hour, minute, second] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(stamp.slice(at, at + (i === 0 ? 4 : 2))))
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!)
}

/** `YYYYMMDDHHMMSS` in UTC, so names sort in creation order wherever they were made. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14)
}

/** `fw make:migration create_posts_table` */
export const makeMigration: Command = {
  name: 'make:migration',
  summary: 'Create a migration in database/migrations',
  usage: 'make:migration <name>',
  details: [
    'Writes database/migrations/<YYYYMMDDHHMMSS>_<name>.ts exporting up(db) and down(db).',
    'create_<table>_table   a create-table stub with an id and timestamps',
    'add_<column>_to_<table> an alter-table stub that adds the column',
    'anything else          an empty up/down pair',
  ],
  arguments: 1,
  async run({ positionals, cwd }) {
    const file = migrationFile(cwd, positionals[0]!)
    writeFiles(cwd, [file], false)
    console.log(`Created ${file.path}`)
  },
}
