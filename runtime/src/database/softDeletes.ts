import type { CreateTableBuilder } from 'kysely'
import type { TableStep } from './columns.js'

/**
 * A nullable `deleted_at` timestamp, for a model declared with `softDeletes: true`: `delete()` sets it, and the
 * model's queries leave the rows that have it out.
 *
 * @example
 * ```ts
 * await db.schema.createTable('posts').$call(id(db)).$call(timestamps()).$call(softDeletes()).execute()
 * ```
 */
export function softDeletes(): TableStep {
  return <B extends CreateTableBuilder<any, any>>(table: B): B => table.addColumn('deleted_at', 'timestamp') as B
}
