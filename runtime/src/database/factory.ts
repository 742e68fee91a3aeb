import type { Faker } from '@faker-js/faker'
import { transaction } from './db.js'
import { loadFaker } from './loadFaker.js'
import type { MODEL_TYPES, RowOf } from './modelTypes.js'
import { BelongsTo } from './relations/BelongsTo.js'
import { BelongsToMany } from './relations/BelongsToMany.js'
import { HasOneOrMany } from './relations/HasOneOrMany.js'
import { Relation } from './relations/Relation.js'

/** What a factory's definition and its states are given for each row they make. */
export interface FactoryContext {
  /** @faker-js/faker, for fake names, sentences, dates and the like. */
  faker: Faker
  /** The number of the row among all this factory made in the process, from 0: for values that must be unique. */
  sequence: number
}

/** The values a model's `create` takes. */
type InsertOf<M> = M extends { readonly [MODEL_TYPES]: { insert: infer I } } ? Partial<I> : Record<string, unknown>

/** A row's values, or what makes them from the context (at once, or as a promise: a password hashed first). */
type ValuesOrMaker<M> = InsertOf<M> | ((context: FactoryContext) => InsertOf<M> | Promise<InsertOf<M>>)

/** How a factory makes a row's values: at once, or as a promise. */
type Definition<M> = (context: FactoryContext) => InsertOf<M> | Promise<InsertOf<M>>

/** What a factory makes: one row, or an array of them after `count(n)`. */
type Made<T, Many extends boolean> = Many extends true ? T[] : T

/** A model class with the static methods a factory uses. */
interface FactoryModel {
  readonly name: string
  forceCreate(values: Record<string, unknown>): Promise<Record<string, unknown>>
}

type Row = Record<string, unknown>

/** How a factory was refined: its count, states, sequence, parents and children. */
interface Plan {
  readonly count: number | undefined
  readonly states: readonly ValuesOrMaker<any>[]
  readonly sequence: readonly Row[]
  readonly parents: readonly { parent: Row | ModelFactory<any, any, false>; relation: string | undefined }[]
  readonly children: readonly { children: ModelFactory<any, any, boolean>; relation: string | undefined }[]
}

/**
 * Rows of a model with fake values, for tests and seeders, as Laravel's model factories and Lucid's: refine with
 * `count`, `state`, `sequence`, `for` (the row it belongs to) and `has` (rows that belong to it), then `make()` the
 * values or `create()` the rows, all of them in one transaction. Refining returns a new factory: a factory is never
 * changed.
 *
 * @example
 * ```ts
 * const posts = await PostFactory.count(3).state('published').for(author).has(CommentFactory.count(2)).create()
 * ```
 */
export class ModelFactory<M, S extends string = never, Many extends boolean = false> {
  readonly #model: () => M
  readonly #definition: Definition<M>
  readonly #states: Readonly<Record<string, ValuesOrMaker<M>>>
  readonly #plan: Plan
  readonly #made: { count: number }

  /** @internal Made by `factory()`. */
  constructor(model: () => M, definition: Definition<M>, states: Record<string, ValuesOrMaker<M>>, plan: Plan, made = { count: 0 }) {
    this.#model = model
    this.#definition = definition
    this.#states = states
    this.#plan = plan
    this.#made = made
  }

  /** The model this factory makes rows of. */
  model(): M {
    return this.#model()
  }

  /** `n` rows instead of one: `create()` then resolves to an array. */
  count(n: number): ModelFactory<M, S, true> {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`count(${n}): a factory makes a whole number of rows, 0 or more`)
    return this.#with({ count: n }) as unknown as ModelFactory<M, S, true>
  }

  /**
   * A named state of the factory (`state('published')`), or values of your own over the definition's (an object, or
   * a function of the context); later states win.
   */
  state(state: S | ValuesOrMaker<M>): ModelFactory<M, S, Many> {
    if (typeof state === 'string') {
      const named = this.#states[state]
      if (named === undefined) throw new TypeError(`${this.#modelName()}'s factory has no state "${state}"`)
      return this.#with({ states: [...this.#plan.states, named] })
    }
    return this.#with({ states: [...this.#plan.states, state as ValuesOrMaker<M>] })
  }

  /** Values that take turns, row after row: `sequence({ role: 'admin' }, { role: 'member' })`. */
  sequence(...values: InsertOf<M>[]): ModelFactory<M, S, Many> {
    return this.#with({ sequence: values as Row[] })
  }

  /**
   * Makes the rows belong to `parent` (a row, or a factory whose row is created first) through a `belongsTo`
   * relation of the model: the one to the parent's model, or the one `relation` names.
   */
  for(parent: Row | ModelFactory<any, any, false>, relation?: string): ModelFactory<M, S, Many> {
    return this.#with({ parents: [...this.#plan.parents, { parent, relation }] })
  }

  /**
   * Creates, for each row, the rows `children` makes, linked to it through a `hasMany`, `hasOne` or `belongsToMany`
   * relation of the model: the one to the children's model, or the one `relation` names.
   */
  has(children: ModelFactory<any, any, boolean>, relation?: string): ModelFactory<M, S, Many> {
    return this.#with({ children: [...this.#plan.children, { children, relation }] })
  }

  /** The values of the rows, without writing them: an object, or an array after `count(n)`. */
  async make(overrides: InsertOf<M> = {} as InsertOf<M>): Promise<Made<InsertOf<M>, Many>> {
    const faker = await loadFaker()
    const values: Row[] = []
    for (let index = 0; index < (this.#plan.count ?? 1); index++) values.push(await this.#values(faker, index, overrides as Row))
    return (this.#plan.count === undefined ? values[0] : values) as Made<InsertOf<M>, Many>
  }

  /**
   * Writes the rows (with their parents and children) in one transaction and resolves to them as stored: a row, or
   * an array after `count(n)`.
   */
  create(overrides: InsertOf<M> = {} as InsertOf<M>): Promise<Made<RowOf<M>, Many>> {
    return transaction(async () => {
      const faker = await loadFaker()
      const model = this.#model() as unknown as FactoryModel
      const owned: Row = {}
      for (const { parent, relation } of this.#plan.parents) {
        const row = parent instanceof ModelFactory ? ((await parent.create()) as Row) : parent
        const source = parent instanceof ModelFactory ? (parent.model() as object) : undefined
        Object.assign(owned, (relationTo(model, [BelongsTo], source, relation, 'for') as BelongsTo<unknown>).valuesFor(row))
      }
      const rows: Row[] = []
      for (let index = 0; index < (this.#plan.count ?? 1); index++) {
        const row = await model.forceCreate({ ...(await this.#values(faker, index, {})), ...owned, ...(overrides as Row) })
        for (const { children, relation } of this.#plan.children) {
          const link = relationTo(model, [HasOneOrMany, BelongsToMany], children.model() as object, relation, 'has')
          if (link instanceof BelongsToMany) {
            const made = await children.create()
            await link.attach(row, Array.isArray(made) ? made : [made])
          } else {
            await children.state((link as HasOneOrMany<unknown, boolean>).valuesFor(row)).create()
          }
        }
        rows.push(row)
      }
      return (this.#plan.count === undefined ? rows[0] : rows) as Made<RowOf<M>, Many>
    })
  }

  /** One row's values: the definition, then the states, the sequence's turn and the overrides. */
  async #values(faker: Faker, index: number, overrides: Row): Promise<Row> {
    const context: FactoryContext = { faker, sequence: this.#made.count++ }
    let values: Row = { ...((await this.#definition(context)) as Row) }
    for (const state of this.#plan.states) values = { ...values, ...((typeof state === 'function' ? await state(context) : state) as Row) }
    const turn = this.#plan.sequence.length > 0 ? this.#plan.sequence[index % this.#plan.sequence.length] : undefined
    return { ...values, ...turn, ...overrides }
  }

  #with(change: Partial<Plan>): ModelFactory<M, S, Many> {
    return new ModelFactory(this.#model, this.#definition, this.#states, { ...this.#plan, ...change }, this.#made)
  }

  #modelName(): string {
    return (this.#model() as { name?: string }).name ?? 'A model'
  }
}

/**
 * Declares a model's factory: how to make the values of one of its rows, with @faker-js/faker (a devDependency of
 * the application, loaded only when rows are made, so a factory file costs a production build nothing), and its named
 * states. The model is given as a function, so that the model file may import its factory (`static factory = () =>
 * PostFactory`) without an import cycle. A definition (or a state) may be async, for a value that takes a promise
 * (`password_hash: await hashPassword(…)`).
 *
 * @example
 * ```ts
 * export const PostFactory = factory(() => Post, ({ faker }) => ({ title: faker.lorem.sentence(), published: false }), {
 *   states: { published: { published: true } },
 * })
 * await PostFactory.count(50).create()
 * ```
 */
export function factory<M, const S extends string = never>(
  model: () => M,
  definition: Definition<M>,
  options: { states?: Record<S, ValuesOrMaker<M>> } = {},
): ModelFactory<M, S> {
  const states: Record<string, ValuesOrMaker<M>> = options.states ?? {}
  return new ModelFactory(model, definition, states, { count: undefined, states: [], sequence: [], parents: [], children: [] })
}

/** The relation of `model` (of one of the kinds) to `related`, or the one named; one line saying what to name when unclear. */
function relationTo(
  model: FactoryModel,
  kinds: readonly (abstract new (...args: any[]) => Relation)[],
  related: object | undefined,
  name: string | undefined,
  method: 'for' | 'has',
): Relation {
  const candidates = relationsOf(model).filter(([, relation]) => kinds.some((kind) => relation instanceof kind))
  const found = name !== undefined ? candidates.filter(([key]) => key === name) : candidates.filter(([, relation]) => related === undefined || relation.related() === related)
  if (found.length === 1) return found[0]![1]
  const kind = method === 'for' ? 'belongsTo' : 'hasMany, hasOne or belongsToMany'
  const names = candidates.map(([key]) => key).join(', ') || 'none'
  const what = name !== undefined ? `no ${kind} relation named "${name}"` : `${found.length === 0 ? 'no' : 'more than one'} ${kind} relation to it`
  throw new TypeError(`${method}(): ${model.name} has ${what} (its ${kind} relations: ${names}); name one: .${method}(…, 'relation')`)
}

/** The relations a model class declares, by name (its own static properties and its parents'). */
function relationsOf(model: object): [string, Relation][] {
  const found: [string, Relation][] = []
  for (let level: object | null = model; level !== null && level !== Function.prototype; level = Object.getPrototypeOf(level)) {
    for (const key of Object.getOwnPropertyNames(level)) {
      const value: unknown = (level as Record<string, unknown>)[key]
      if (!(value instanceof Relation) || found.some(([name]) => name === key)) continue
      // Its name is known here (belongsTo's default foreign key is derived from it), as on its first query.
      if (value.name === '') value.name = key
      found.push([key, value])
    }
  }
  return found
}
