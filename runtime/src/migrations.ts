/**
 * The names of the tables the migrator keeps for itself, for tools that list an application's own
 * tables (the dashboards of `fw make:dash` hide them).
 *
 * @example
 * ```ts
 * import { MIGRATIONS_LOCK_TABLE, MIGRATIONS_TABLE } from 'fw-runtime/migrations'
 * ```
 */
export { MIGRATIONS_TABLE } from './database/Migrator.js'
export { MIGRATIONS_LOCK_TABLE } from './database/MigrationLock.js'
