import { makeAuth } from '../../../generators/make-auth/index.js'
import { makeCommand } from '../../../generators/make-command/index.js'
import { makeController } from '../../../generators/make-controller/index.js'
import { makeDash } from '../../../generators/make-dash/index.js'
import { makeFactory } from '../../../generators/make-factory/index.js'
import { makeJob } from '../../../generators/make-job/index.js'
import { makeMail } from '../../../generators/make-mail/index.js'
import { makeMiddleware } from '../../../generators/make-middleware/index.js'
import { makeMigration } from '../../../generators/make-migration/index.js'
import { makeModel } from '../../../generators/make-model/index.js'
import { makePolicy } from '../../../generators/make-policy/index.js'
import { makeSeeder } from '../../../generators/make-seeder/index.js'
import { makeTest } from '../../../generators/make-test/index.js'
import { adminGrant, adminRevoke } from './admin.js'
import type { Command } from './Command.js'
import { dbTypes } from './dbTypes.js'
import { keyGenerate } from './keyGenerate.js'
import { down, up } from './maintenance.js'
import { migrate, migrateFresh, migrateReset, migrateRollback, migrateStatus, migrateUnlock } from './migrate.js'
import { openapi } from './openapi.js'
import { queueFailed, queueFlush, queueRestart, queueRetry, queueWork } from './queue.js'
import { routeList } from './routeList.js'
import { scheduleList, scheduleRun, scheduleWork } from './schedule.js'
import { dbSeed } from './seed.js'
import { serve, serveNode } from './serve.js'
import { start } from './start.js'
import { storageLink } from './storageLink.js'
import { tinker } from './tinker.js'
import { types } from './types.js'

/**
 * Every `fw` command, in the order `fw --help` lists them. A new generator is a folder in
 * `generators/` exporting a Command, and one line here.
 */
export const commands: readonly Command[] = [
  serve,
  serveNode,
  start,
  keyGenerate,
  routeList,
  tinker,
  openapi,
  types,
  makeController,
  makeModel,
  makeMigration,
  makeMiddleware,
  makeSeeder,
  makeFactory,
  makeJob,
  makeMail,
  makePolicy,
  makeCommand,
  makeTest,
  makeAuth,
  makeDash,
  adminGrant,
  adminRevoke,
  migrate,
  migrateRollback,
  migrateStatus,
  migrateFresh,
  migrateReset,
  migrateUnlock,
  dbSeed,
  dbTypes,
  queueWork,
  queueFailed,
  queueRetry,
  queueFlush,
  queueRestart,
  scheduleWork,
  scheduleRun,
  scheduleList,
  down,
  up,
  storageLink,
]
