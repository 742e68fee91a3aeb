import { HttpError } from '../http/HttpError.js'
import type { AuthorizationResult } from './AuthorizationResult.js'
import { Gate } from './Gate.js'

/**
 * What a check reads of a request (a `Request`, named by its shape since Request itself delegates here): the user the
 * `auth` middleware put there, and the models that route model binding loaded by parameter.
 */
export interface AuthorizingRequest {
  readonly user: unknown
  readonly params: Readonly<Record<string, string>>
  model(parameter: string): unknown
}

/**
 * The check of a request's user (`request.user`, set by the `auth` middleware; a guest without it), with a row that
 * route model binding loaded standing for its model: `inspect(request, 'update', post)`, where the route bound `post`,
 * asks the policy of the model named like the parameter (`Post`), as `Gate.inspect(user, 'update', Post, post)`.
 */
export function inspect(request: AuthorizingRequest, ability: string, ...args: unknown[]): Promise<AuthorizationResult> {
  return Gate.inspect(request.user ?? null, ability, ...withModel(request, ability, args))
}

/**
 * Throws unless the request's user may: an HttpError 403 with the policy's reason (`This action is unauthorized.`
 * when it gave none), or 401 `Unauthenticated` for a guest the ability does not take. The router answers it as JSON
 * or as the error page, by the request's `Accept`. The same as `request.authorize(…)`.
 *
 * @example
 * ```ts
 * const post = request.model<PostRow>('post')!      // bound by the route
 * await authorize(request, 'update', post)          // PostPolicy.update(user, post)
 * await authorize(request, 'create', Post)          // PostPolicy.create(user)
 * await authorize(request, 'publish', post)         // a gate: Gate.define('publish', …)
 * ```
 */
export async function authorize(request: AuthorizingRequest, ability: string, ...args: unknown[]): Promise<void> {
  const result = await inspect(request, ability, ...args)
  if (!result.allowed) throw new HttpError(result.status, result.message!)
}

/**
 * Whether the request's user may, for a view: compute it before the template, which is synchronous.
 *
 * @example
 * ```ts
 * const canEdit = await can(request, 'update', post)
 * return html`<h1>${post.title}</h1>${canEdit ? html`<a href="/posts/${post.id}/edit">Edit</a>` : ''}`
 * ```
 */
export async function can(request: AuthorizingRequest, ability: string, ...args: unknown[]): Promise<boolean> {
  return (await inspect(request, ability, ...args)).allowed
}

/**
 * Several abilities at once, by name, for a view that shows several links: `{ update: true, delete: false }`.
 *
 * @example
 * ```ts
 * const allowed = await abilities(request, ['update', 'delete'], post)
 * html`${allowed.update ? html`<a href="…">Edit</a>` : ''}${allowed.delete ? html`<button>Delete</button>` : ''}`
 * ```
 */
export async function abilities<const A extends string>(request: AuthorizingRequest, names: readonly A[], ...args: unknown[]): Promise<Record<A, boolean>> {
  const answers = await Promise.all(names.map((name) => can(request, name, ...args)))
  return Object.fromEntries(names.map((name, i) => [name, answers[i]])) as Record<A, boolean>
}

/**
 * The arguments as the Gate takes them: a row first, when no gate is defined under the ability, is preceded by its
 * model's class, found by the route parameter it is bound to. A row the route did not bind cannot name its model (rows
 * are plain objects): that is a programming error, said here.
 */
function withModel(request: AuthorizingRequest, ability: string, args: unknown[]): unknown[] {
  const first = args[0]
  if (typeof first !== 'object' || first === null || Gate.has(ability)) return args
  for (const parameter of Object.keys(request.params)) {
    if (request.model(parameter) !== first) continue
    const model = Gate.modelNamed(parameter)
    if (model) return [model, ...args]
    throw new TypeError(
      `authorize "${ability}": the row bound to {${parameter}} has no policy: register one in bootstrap/app.ts, ` +
        `Gate.policy(${pascal(parameter)}, ${pascal(parameter)}Policy), or name the model first: authorize(request, '${ability}', Model, row)`,
    )
  }
  throw new TypeError(
    `authorize "${ability}": which model is this row of? No gate is named "${ability}", and the row is not a model that ` +
      `this route bound: name the model first, authorize(request, '${ability}', Post, post), or define the gate: Gate.define('${ability}', …)`,
  )
}

function pascal(name: string): string {
  return name.replace(/(^|[-_])(\w)/g, (_, __, letter: string) => letter.toUpperCase())
}
