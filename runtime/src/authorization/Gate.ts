import { resultOf, GUEST_DENIED, type AbilityResult, type AuthorizationResult } from './AuthorizationResult.js'

/**
 * A gate: who may do something, given the user (never null unless the gate takes guests) and the arguments of the
 * check. `true` allows, `false` denies, a string denies with that reason.
 */
export type GateCallback<User = any, Args extends any[] = any[]> = (user: User, ...args: Args) => AbilityResult | Promise<AbilityResult>

/**
 * Asked before any gate or policy, for a signed-in user: `true` or `false` (or a reason) decides, `undefined` leaves it
 * to the ability.
 */
export type BeforeHook<User = any> = (user: User, ability: string, ...args: any[]) => AbilityResult | Promise<AbilityResult>

/**
 * A policy class: one method per ability on a model (`viewAny`, `view`, `create`, `update`, `delete`, …), each given the
 * user, then the model's row for abilities on one row; a `before(user, ability)` method is asked first. A method that
 * may answer guests (a null user) is listed in `static guests`; the others deny guests without being called.
 */
export interface PolicyClass {
  new (): object
  /** The abilities that guests are asked about, their user being null: `static guests = ['view']`. */
  readonly guests?: readonly string[]
}

/** Any class a policy is registered for: a model made by `Model(table)`, or a class of the application's own. */
export type PolicyTarget = abstract new (...args: any[]) => unknown

interface Registered {
  readonly model: PolicyTarget
  readonly policy: PolicyClass
  instance: Record<string, unknown> | undefined
}

interface DefinedGate {
  readonly callback: GateCallback
  readonly guests: boolean
}

/** What answers a check: the function to call, with its arguments, and whether it takes guests. */
interface Decider {
  readonly decide: (user: unknown, ...args: unknown[]) => AbilityResult | Promise<AbilityResult>
  readonly args: readonly unknown[]
  readonly guests: boolean
  readonly before: BeforeHook | undefined
}

/** `BlogPost`, `blogPost`, `blog_post` and `blog-post` all name the model `BlogPost`. */
function nameKey(name: string): string {
  return name.replace(/[-_]/g, '').toLowerCase()
}

/**
 * The application's abilities: gates (`define`), policies per model (`policy`), and `before` hooks, asked with
 * `allows`, `denies` and `inspect`. One registry per process, filled in bootstrap/app.ts before the first request.
 * Every check is asynchronous, so that a gate or a policy may read the database.
 *
 * @example
 * ```ts
 * Gate.before((user) => (user.is_admin ? true : undefined))        // an admin may do anything
 * Gate.define('publish', (user: AuthUser, post: PostRow) => user.id === post.author_id || 'Only the author may publish')
 * Gate.policy(Post, PostPolicy)
 *
 * await Gate.allows(user, 'publish', post)      // a gate: its arguments as given
 * await Gate.allows(user, 'update', Post, post) // a policy: the model class picks it, the row goes to PostPolicy.update
 * await Gate.allows(user, 'create', Post)       // a policy's ability on the model itself
 * ```
 */
export class GateRegistry {
  private readonly gates = new Map<string, DefinedGate>()
  private readonly policies = new Map<PolicyTarget, Registered>()
  /** The registered models by `nameKey` of their class name and of their table, for `can:update,post` and the dashboard. */
  private readonly names = new Map<string, PolicyTarget>()
  private readonly tables = new Map<string, PolicyTarget>()
  private hooks: BeforeHook[] = []

  /**
   * Defines a gate: an ability that is not about a model, or that needs no policy. With `{ guests: true }` it is also
   * asked for guests (its user is then null); otherwise guests are denied (401) without asking it.
   *
   * @example
   * ```ts
   * Gate.define('viewReports', (user: AuthUser) => user.email.endsWith('@example.com'))
   * Gate.define('readPost', (user: AuthUser | null, post: PostRow) => post.published || user?.id === post.author_id, { guests: true })
   * ```
   */
  define<User, Args extends any[]>(ability: string, callback: GateCallback<User, Args>, options: { guests?: boolean } = {}): this {
    if (typeof callback !== 'function') throw new TypeError(`Gate.define("${ability}", callback): the callback must be a function`)
    this.gates.set(ability, { callback: callback as GateCallback, guests: options.guests === true })
    return this
  }

  /**
   * Registers the policy of a model class: `Gate.allows(user, 'update', Post, post)` calls `update(user, post)` of it,
   * and the `can:update,post` middleware and the dashboard find it by the model's name (`Post`, parameter `post`) and
   * table (`posts`). A second policy for the same model replaces the first.
   *
   * @example
   * ```ts
   * // bootstrap/app.ts
   * Gate.policy(Post, PostPolicy)
   * ```
   */
  policy(model: PolicyTarget, policy: PolicyClass): this {
    if (typeof model !== 'function') throw new TypeError('Gate.policy(model, policy): the model must be a class, e.g. Gate.policy(Post, PostPolicy)')
    if (typeof policy !== 'function') throw new TypeError(`Gate.policy(${model.name}, policy): the policy must be a class, e.g. Gate.policy(${model.name}, ${model.name}Policy)`)
    this.policies.set(model, { model, policy, instance: undefined })
    if (model.name) this.names.set(nameKey(model.name), model)
    const table = (model as { table?: unknown }).table
    if (typeof table === 'string') this.tables.set(table, model)
    return this
  }

  /**
   * Adds a hook asked before every gate and policy, for a signed-in user (guests skip it): its first answer other than
   * `undefined` decides. Hooks are asked in the order added, before a policy's own `before` method.
   *
   * @example
   * ```ts
   * Gate.before((user: AppUser) => (user.is_admin ? true : undefined))
   * ```
   */
  before<User>(hook: BeforeHook<User>): this {
    this.hooks.push(hook as BeforeHook)
    return this
  }

  /** Whether the user may: `await Gate.allows(user, 'update', Post, post)`. A guest's user is null. */
  async allows(user: unknown, ability: string, ...args: unknown[]): Promise<boolean> {
    return (await this.inspect(user, ability, ...args)).allowed
  }

  /** Whether the user may not: the opposite of `allows`. */
  async denies(user: unknown, ability: string, ...args: unknown[]): Promise<boolean> {
    return !(await this.inspect(user, ability, ...args)).allowed
  }

  /**
   * The decision with its reason. The first argument picks what decides: a model class with a policy picks the
   * policy (its method of the ability's name gets the user and the arguments after the class); otherwise the gate
   * defined under the ability gets the user and every argument. Nothing to decide, or a policy without that method,
   * denies. A guest (null or undefined user) is asked about only by abilities that take guests; the others answer 401.
   *
   * @example
   * ```ts
   * const { allowed, message } = await Gate.inspect(user, 'delete', Post, post)
   * ```
   */
  async inspect(user: unknown, ability: string, ...args: unknown[]): Promise<AuthorizationResult> {
    const decider = this.deciderFor(ability, args)
    const signedIn = user !== null && user !== undefined
    if (signedIn) {
      for (const hook of this.hooks) {
        const answer = await hook(user, ability, ...args)
        if (answer !== undefined) return resultOf(answer)
      }
      if (decider?.before) {
        const answer = await decider.before(user, ability, ...decider.args)
        if (answer !== undefined) return resultOf(answer)
      }
    }
    if (decider === undefined) return resultOf(false)
    if (!signedIn && !decider.guests) return GUEST_DENIED
    return resultOf(await decider.decide(signedIn ? user : null, ...decider.args))
  }

  /** Whether a gate is defined under that name. */
  has(ability: string): boolean {
    return this.gates.has(ability)
  }

  /** The policy instance of a model class (one per process), or undefined when it has none. */
  policyFor(model: PolicyTarget): object | undefined {
    const registered = this.policies.get(model)
    if (!registered) return undefined
    return (registered.instance ??= new registered.policy() as Record<string, unknown>)
  }

  /** The model class with a policy whose class name is `name` in any case (`post`, `Post`, `blog_post`); undefined otherwise. */
  modelNamed(name: string): PolicyTarget | undefined {
    return this.names.get(nameKey(name))
  }

  /** The model class with a policy over that table (`posts`), for the dashboard; undefined otherwise. */
  modelForTable(table: string): PolicyTarget | undefined {
    return this.tables.get(table)
  }

  /** Forgets every gate, policy and hook: for tests that register their own. */
  reset(): void {
    this.gates.clear()
    this.policies.clear()
    this.names.clear()
    this.tables.clear()
    this.hooks = []
  }

  private deciderFor(ability: string, args: readonly unknown[]): Decider | undefined {
    const first = args[0]
    if (typeof first === 'function' && this.policies.has(first as PolicyTarget)) {
      const registered = this.policies.get(first as PolicyTarget)!
      const policy = this.policyFor(registered.model) as Record<string, unknown>
      const method = policy[ability]
      const before = typeof policy.before === 'function' ? (policy.before as BeforeHook).bind(policy) : undefined
      if (typeof method !== 'function' || ability === 'before' || ability === 'constructor') {
        // A policy without the ability denies, as Laravel's does; its `before` may still allow.
        return { decide: () => false, args: args.slice(1), guests: false, before }
      }
      const decide = method.bind(policy) as Decider['decide']
      return { decide, args: args.slice(1), guests: registered.policy.guests?.includes(ability) === true, before }
    }
    const gate = this.gates.get(ability)
    return gate && { decide: gate.callback, args, guests: gate.guests, before: undefined }
  }
}

/**
 * The application's gates and policies (see `GateRegistry`): one per process, even when two copies of fw-runtime are
 * loaded (a linked checkout beside an installed one), so that what bootstrap/app.ts registers is what every check asks.
 *
 * @example
 * ```ts
 * import { Gate } from 'fw-runtime/authorization'
 * Gate.policy(Post, PostPolicy)
 * ```
 */
export const Gate: GateRegistry = ((globalThis as Record<symbol, GateRegistry | undefined>)[Symbol.for('fw.gate')] ??= new GateRegistry())
