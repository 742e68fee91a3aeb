import { sql, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type Updateable } from 'kysely'
import { db } from './db.js'
import type { Tables } from './Tables.js'

export type ComparisonOperator = '=' | '!=' | '<>' | '<' | '<=' | '>' | '>=' | 'like' | 'not like' | 'in' | 'not in' | 'is' | 'is not'

/** One page of rows with the seed's pagination metadata. */
export interface Page<Row> {
  data: Row[]
  meta: { current_page: number; per_page: number; total: number; last_page: number }
}

/** The static side of a model class made by `Model(table)`. */
export interface ModelClass<T extends keyof DB & string, DB = Tables> {
  new (): object
  /** The table this model reads and writes. */
  readonly table: T
  /** A query over the table with every column selected, to refine with kysely. */
  query(): SelectQueryBuilder<DB, T, Selectable<DB[T]>>
  /** The row with that id, or undefined. */
  find(id: number | string): Promise<Selectable<DB[T]> | undefined>
  /** Every row, by id. */
  all(): Promise<Selectable<DB[T]>[]>
  /** The rows whose column compares to the value, e.g. `where('title', '=', 'Hello')`. */
  where<C extends keyof Selectable<DB[T]> & string>(
    column: C,
    operator: ComparisonOperator,
    value: Selectable<DB[T]>[C] | readonly Selectable<DB[T]>[C][] | null,
  ): Promise<Selectable<DB[T]>[]>
  /** Inserts a row and returns it as stored, with its id and defaults. */
  create(values: Insertable<DB[T]>): Promise<Selectable<DB[T]>>
  /** Changes the row with that id (and its `updated_at`, when the table has timestamps); returns it, or undefined. */
  update(id: number | string, values: Updateable<DB[T]>): Promise<Selectable<DB[T]> | undefined>
  /** Deletes the row with that id; true when there was one. */
  delete(id: number | string): Promise<boolean>
  /** One page of rows by id, with `meta` as in the seed's pagination pattern (pages count from 1). */
  paginate(page?: number, perPage?: number): Promise<Page<Selectable<DB[T]>>>
}

export interface ModelOptions {
  /** Set `updated_at` on update (default true: the create-table stub adds timestamps). */
  timestamps?: boolean
  /** The primary key column (default `id`). */
  primaryKey?: string
  /** The database to use; defaults to the `db` service of the container, looked up on each query. */
  db?: () => Kysely<any>
}

/**
 * The base of an application model: a class whose static methods query one table through kysely,
 * typed by the table's entry in `Tables` (or in another table map given as `DB`).
 *
 * @example
 * ```ts
 * export class Post extends Model('posts') {}
 *
 * const post = await Post.create({ title: 'Hello' })
 * const page = await Post.paginate(1, 10)
 * ```
 */
export function Model<T extends keyof DB & string, DB = Tables>(table: T, options: ModelOptions = {}): ModelClass<T, DB> {
  type Row = Selectable<DB[T]>
  const key = options.primaryKey ?? 'id'
  const timestamps = options.timestamps ?? true
  const database = options.db ?? (db as () => Kysely<any>)
  // Queries are built over `string` and `any`: kysely's types cannot follow a generic table name.
  const name: string = table
  const rows = () => database().selectFrom(name).selectAll()

  return class {
    static readonly table = table

    static query() {
      return rows() as unknown as SelectQueryBuilder<DB, T, Row>
    }

    static async find(id: number | string): Promise<Row | undefined> {
      return (await rows().where(key, '=', id).executeTakeFirst()) as Row | undefined
    }

    static async all(): Promise<Row[]> {
      return (await rows().orderBy(key).execute()) as Row[]
    }

    static async where(column: string, operator: ComparisonOperator, value: unknown): Promise<Row[]> {
      return (await rows().where(column, operator, value).orderBy(key).execute()) as Row[]
    }

    static async create(values: Insertable<DB[T]>): Promise<Row> {
      const insert = database().insertInto(name)
      // `insert … default values`: a row of nothing but defaults (id and timestamps) has no column list.
      const query = Object.keys(values).length === 0 ? insert.defaultValues() : insert.values(values)
      return (await query.returningAll().executeTakeFirstOrThrow()) as Row
    }

    static async update(id: number | string, values: Updateable<DB[T]>): Promise<Row | undefined> {
      const changes = timestamps ? { ...values, updated_at: sql`CURRENT_TIMESTAMP` } : values
      return (await database()
        .updateTable(name)
        .set(changes)
        .where(key, '=', id)
        .returningAll()
        .executeTakeFirst()) as Row | undefined
    }

    static async delete(id: number | string): Promise<boolean> {
      const result = await database().deleteFrom(name).where(key, '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    }

    static async paginate(page = 1, perPage = 15): Promise<Page<Row>> {
      const current = Math.max(1, Math.floor(page) || 1)
      const size = Math.max(1, Math.floor(perPage) || 15)
      const counted = await database()
        .selectFrom(name)
        .select((eb) => eb.fn.countAll().as('total'))
        .executeTakeFirstOrThrow()
      const total = Number(counted.total)
      const data = (await rows()
        .orderBy(key)
        .limit(size)
        .offset((current - 1) * size)
        .execute()) as Row[]
      return { data, meta: { current_page: current, per_page: size, total, last_page: Math.ceil(total / size) } }
    }
  } as unknown as ModelClass<T, DB>
}
