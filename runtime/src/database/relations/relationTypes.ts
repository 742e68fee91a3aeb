import type { RowOf } from '../modelTypes.js'
import type { Relation } from './Relation.js'

// How a model's relations type its queries: the names `with()` and `whereHas()` take, and the rows they load.

/** Marks the query a scope receives: its model's relations are not known there, so any name is taken. */
export declare const ANY_RELATION: unique symbol

/** The names of a model's relations: its static properties made by `hasMany`, `hasOne`, `belongsTo`, `belongsToMany`. */
export type RelationName<M> = M extends { readonly [ANY_RELATION]: true }
  ? string
  : { [K in keyof M]: M[K] extends Relation<any, boolean> ? K : never }[keyof M] & string

/** The related model of a model's relation. */
export type RelatedOf<M, K> = K extends keyof M ? (M[K] extends Relation<infer R, boolean> ? R : never) : M extends { readonly [ANY_RELATION]: true } ? any : never

type Depth = [never, 0, 1, 2]

/** The relation paths `with()` takes, three levels deep: `'author'`, `'comments'`, `'comments.author'`. */
export type RelationPath<M, D extends number = 3> = [D] extends [never]
  ? never
  : { [K in RelationName<M>]: K | `${K}.${RelationPath<RelatedOf<M, K>, Depth[D]>}` }[RelationName<M>]

/** The model at the end of a relation path: `ModelAt<typeof Post, 'comments.author'>` is `typeof User`. */
export type ModelAt<M, P extends string> = P extends `${infer Head}.${infer Rest}` ? ModelAt<RelatedOf<M, Head>, Rest> : RelatedOf<M, P>

type Head<P extends string> = P extends `${infer H}.${string}` ? H : P
type Tail<P extends string, K extends string> = P extends `${K}.${infer Rest}` ? Rest : never

/**
 * What the relation paths `P` add to a row of `M`: `Loaded<typeof Post, 'author' | 'comments.author'>` is
 * `{ author: UserRow | null; comments: (CommentRow & { author: UserRow | null })[] }`.
 */
export type Loaded<M, P extends string> = {
  [K in Head<P> & keyof M]: M[K] extends Relation<infer R, infer Many>
    ? Many extends true
      ? LoadedRow<R, Tail<P, K & string>>[]
      : LoadedRow<R, Tail<P, K & string>> | null
    : never
}

/** A row of `M` with the relations of the paths `P` loaded (the row alone when there are none). */
export type LoadedRow<M, P extends string> = [P] extends [never] ? RowOf<M> : RowOf<M> & Loaded<M, P>
