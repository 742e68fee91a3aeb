import type { Kysely } from 'fw-runtime'
import { TaskFactory } from '#database/factories/TaskFactory.js'

/** A few tasks to try the task API with, written by `npx fw db:seed` in one transaction. */
export async function run(_db: Kysely<any>): Promise<void> {
  await TaskFactory.count(5).create()
}
