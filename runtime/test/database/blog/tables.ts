import type { Generated } from 'kysely'
import { Model, type ModelClass, type ModelOptions } from '../../../src/database/Model.js'
import type { RowFor } from '../../../src/database/modelTypes.js'

type Timestamp = Generated<string>

/** The blog's tables: a table map of the tests' own (augmenting `Tables` would retype every other test's database). */
export interface BlogTables {
  users: { id: Generated<number>; name: string; email: string; password_hash: string; created_at: Timestamp; updated_at: Timestamp }
  profiles: { id: Generated<number>; user_id: number; bio: string }
  posts: {
    id: Generated<number>
    author_id: number
    title: string
    body: string | null
    status: Generated<string>
    views: Generated<number>
    created_at: Timestamp
    updated_at: Timestamp
    deleted_at: string | null
  }
  comments: { id: Generated<number>; post_id: number; author_id: number; body: string; stars: Generated<number>; created_at: Timestamp; updated_at: Timestamp }
  tags: { id: Generated<number>; name: string }
  post_tag: { post_id: number; tag_id: number }
  categories: { id: Generated<number>; parent_id: number | null; name: string }
}

/** `Model(table, options)` over the blog's tables, with the options' types kept (as an app's `Model` over `Tables`). */
export function BlogModel<const T extends keyof BlogTables & string, const O extends ModelOptions<RowFor<BlogTables, T>> = {}>(
  table: T,
  options?: O,
): ModelClass<T, BlogTables, O> {
  return Model<T, BlogTables, O>(table, options)
}
