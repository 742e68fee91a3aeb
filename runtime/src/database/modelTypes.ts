import type { Insertable, Selectable, Updateable } from 'kysely'

// The types a model class carries, and how the query builder, the relations and the static methods read
// them back. Type-only: nothing here exists at run time.

/** Where a model class keeps its types (never a value at run time). */
export declare const MODEL_TYPES: unique symbol

/** A row of a table that `Tables` does not have yet (before `fw migrate` writes its types): any column. */
export type LooseRow = { [column: string]: any }

/** The table map a model queries through: `DB`, plus the model's table, loosely, when `DB` lacks it. */
export type DBFor<DB, T extends string> = T extends keyof DB ? DB : DB & { [K in T]: LooseRow }

/** A row of table `T` as a query returns it. */
export type RowFor<DB, T extends string> = T extends keyof DB ? Selectable<DB[T]> : LooseRow

/** The values an insert into table `T` takes. */
export type InsertFor<DB, T extends string> = T extends keyof DB ? Insertable<DB[T]> : LooseRow

/** The values an update of table `T` takes. */
export type UpdateFor<DB, T extends string> = T extends keyof DB ? Updateable<DB[T]> : LooseRow

/** What `Model(table, options)` declares about its table, for the types of every method. */
export interface ModelTypes<T extends string = string, DB = any, Options = unknown> {
  table: T
  db: DBFor<DB, T>
  row: RowFor<DB, T>
  insert: InsertFor<DB, T>
  update: UpdateFor<DB, T>
  options: Options
}

/** Any model class, as the type parameter of a query or a relation. */
export interface AnyModel {
  readonly table: string
  readonly [MODEL_TYPES]: ModelTypes
}

/** The row type of a model class: `RowOf<typeof Post>`. */
export type RowOf<M> = M extends { readonly [MODEL_TYPES]: { row: infer R } } ? R : never

/** A column name of a model's table. */
export type ColumnOf<M> = keyof RowOf<M> & string

/** The table name of a model class (a key of its table map). */
export type TableOf<M> = Extract<M extends { readonly [MODEL_TYPES]: { table: infer T extends string } } ? T : never, keyof DBOf<M>>

/** The table map (kysely's `DB`) a model's queries are typed by. */
export type DBOf<M> = M extends { readonly [MODEL_TYPES]: { db: infer DB } } ? DB : never

/** The options a model was declared with. */
export type OptionsOf<M> = M extends { readonly [MODEL_TYPES]: { options: infer O } } ? O : never

/** A model of a table that no table map has: any column. */
export interface LooseModel {
  readonly table: string
  readonly [MODEL_TYPES]: ModelTypes<string, {}, {}>
}
