// Type-level tests of models, compiled by `npm run typecheck` (never run): each `@ts-expect-error` marks a line that
// must not compile (a wrong column, relation or scope), and the assignments pin the types of what queries return.
import type { Generated } from 'kysely'
import { Model } from '../../src/database/Model.js'
import type { LoadedRow } from '../../src/database/relations/relationTypes.js'
import type { Tables } from '../../src/database/Tables.js'
import { Category } from './blog/Category.js'
import { Post } from './blog/Post.js'
import { User } from './blog/User.js'

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false
function assertType<T extends true>(): T | void {}

interface UserRow { id: number; name: string; email: string; password_hash: string; created_at: string; updated_at: string }
interface CommentRow { id: number; post_id: number; author_id: number; body: string; stars: number; created_at: string; updated_at: string }

export async function rows() {
  const post = await Post.findOrFail(1)
  assertType<Equal<typeof post.title, string>>()
  assertType<Equal<typeof post.deleted_at, string | null>>()
  // @ts-expect-error a column the table does not have
  void post.headline

  const found = await Post.find('abc')
  assertType<Equal<typeof found, typeof post | undefined>>()
  const byEmail = await User.firstWhere('email', 'ada@example.com')
  assertType<Equal<typeof byEmail, UserRow | undefined>>()
  await User.firstWhere('id', '>', 3)
  // @ts-expect-error a value of the wrong type for the column
  await User.firstWhere('email', 3)
  // @ts-expect-error a column the table does not have
  await User.firstWhere('mail', 'ada@example.com')
  const count: number = await Post.count()
  const exists: boolean = await Post.query().where('views', '>', 10).exists()
  return [count, exists]
}

export async function relations() {
  const posts = await Post.query().with('author', 'comments.author', 'tags').execute()
  const post = posts[0]!
  assertType<Equal<typeof post.author, UserRow | null>>()
  assertType<Equal<(typeof post.comments)[number]['author'], UserRow | null>>()
  const comment: CommentRow = post.comments[0]!
  const tag: { id: number; name: string } = post.tags[0]!
  // @ts-expect-error a relation not loaded by this query
  void post.comments[0]!.post
  // @ts-expect-error a relation the model does not have
  Post.query().with('writer')
  // @ts-expect-error a nested relation the related model does not have
  Post.query().with('comments.writer')

  const loaded: LoadedRow<typeof Post, 'author' | 'comments.author' | 'tags'> = post
  void loaded

  const constrained = await Post.query()
    .with('comments', (comments) => comments.where('stars', '>', 3).latest())
    .firstOrFail()
  const stars: number = constrained.comments[0]!.stars
  // @ts-expect-error a column of the related model checked in the constraint
  Post.query().with('comments', (comments) => comments.where('title', '=', 'x'))
  // @ts-expect-error a constraint must return the query
  Post.query().with('comments', (comments) => void comments.where('stars', '>', 3))

  const tree = await Category.query().with('parent.parent', 'children').execute()
  const grandparent: number | null | undefined = tree[0]!.parent?.parent?.parent_id
  const children: { name: string }[] = tree[0]!.children

  const author = await User.query().with('posts', 'profile').firstOrFail()
  assertType<Equal<typeof author.profile, { id: number; user_id: number; bio: string } | null>>()
  const found = await User.query().with('profile').findOrFail('1')
  assertType<Equal<typeof found.profile, { id: number; user_id: number; bio: string } | null>>()
  const maybe = await Post.query().with('author').find(1)
  const writer: string | undefined = maybe?.author?.name
  return [comment, tag, stars, grandparent, children, writer]
}

export async function filters() {
  await Post.query().whereHas('comments', (comments) => comments.where('stars', '>=', 4)).execute()
  // @ts-expect-error a relation the model does not have
  await Post.query().whereHas('likes').execute()
  // @ts-expect-error a column of the related model checked in whereHas
  await Post.query().whereHas('comments', (comments) => comments.where('views', '>', 1)).execute()
  await Post.query().whereDoesntHave('tags').withTrashed().onlyTrashed().execute()
  await Post.query().published().viewedAtLeast(100).commented().orderBy('created_at', 'desc').limit(5).execute()
  // @ts-expect-error a scope's arguments are typed
  await Post.query().viewedAtLeast('many').execute()
  // @ts-expect-error a scope the model does not have
  await Post.query().drafts().execute()
  // @ts-expect-error a column the table does not have
  await Post.query().where('headline', '=', 'x').execute()
  // @ts-expect-error a column the table does not have
  await Post.query().orderBy('headline').execute()
}

export async function writes() {
  await Post.create({ author_id: 1, title: 'Hello' })
  // @ts-expect-error views is not fillable: create() drops it, so a literal that sets it does not compile
  await Post.create({ author_id: 1, title: 'Hello', views: 10 })
  await Post.forceCreate({ author_id: 1, title: 'Hello', views: 10 })
  // @ts-expect-error title is required
  await Post.create({ author_id: 1 })
  await Post.update(1, { title: 'Changed' })
  // @ts-expect-error views is not fillable
  await Post.update(1, { views: 3 })
  await Post.updateOrCreate({ title: 'Hello' }, { body: 'Body' })
  const restored: boolean = await Post.restore(1)
  return restored
}

// A table that `Tables` does not have yet (before `fw migrate` writes database/schema.d.ts): rows are loose.
export class Draft extends Model('drafts_not_migrated_yet') {}
export async function loose() {
  const draft = await Draft.findOrFail(1)
  const anything: string = draft.whatever
  await Draft.create({ title: 'x', anything: 1 })
  await Draft.query().where('any_column', '=', 3).orderBy('other').execute()
  return anything
}

// Once the table is in `Tables` (database/schema.d.ts merges it), rows are typed.
declare module '../../src/database/Tables.js' {
  interface Tables {
    model_types_notes: { id: Generated<number>; title: string }
  }
}
export class Note extends Model('model_types_notes', { fillable: ['title'], hidden: ['title'] }) {}
// @ts-expect-error a hidden column must be a column of the table
export class BadHidden extends Model('model_types_notes', { hidden: ['secret'] }) {}
// @ts-expect-error a fillable column must be a column of the table
export class BadFillable extends Model('model_types_notes', { fillable: ['nope'] }) {}
export async function typed() {
  const note = await Note.findOrFail(1)
  assertType<Equal<typeof note, { id: number; title: string }>>()
  // @ts-expect-error a column the table does not have
  void note.body
  const tables: keyof Tables = 'model_types_notes'
  return tables
}
