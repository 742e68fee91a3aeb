import type { Kysely } from 'kysely'

/**
 * The application's tables, for typed queries. Each model adds its own with declaration merging:
 *
 * @example
 * ```ts
 * declare module 'fw-runtime' {
 *   interface Tables { posts: PostsTable }
 * }
 * ```
 */
export interface Tables {}

/** The `db` service: a kysely instance over the application's tables. */
export type Database = Kysely<Tables>
