import { id, timestamps, type Kysely } from 'fw-runtime'

// The tasks of the task API (App/Models/Task.ts). `npm run migrate` runs it; create-fw-app ran it once already.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .$call(id(db))
    .addColumn('title', 'varchar(255)', (column) => column.notNull())
    .addColumn('completed', 'boolean', (column) => column.notNull().defaultTo(false))
    .$call(timestamps())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tasks').execute()
}
