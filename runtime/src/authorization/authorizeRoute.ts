import { readsBoundModels } from '../http/boundModels.js'
import type { Middleware } from '../http/Middleware.js'
import { documented } from '../http/middlewareDocs.js'
import type { Request } from '../http/Request.js'
import { authorize } from './authorize.js'
import { Gate, type PolicyTarget } from './Gate.js'

/**
 * The middleware of `.middleware('can:update,post')`: the request's user must be allowed the ability, else 403 with
 * the policy's reason (401 for a guest the ability does not take; put `auth` before it). Each subject is, in this
 * order: the model that route model binding loaded for that route parameter (`post`); the parameter's value when
 * nothing is bound to it, for a gate; a model class with a policy, by name, for an ability on the model itself
 * (`can:create,Post`); or a class given as it is. Every router knows the `can:` alias.
 *
 * @example
 * ```ts
 * Route.put('/posts/{post}', [PostController, 'update']).bind('post', Post).middleware(auth, 'can:update,post')
 * Route.post('/posts', [PostController, 'store']).middleware(auth, 'can:create,Post')
 * Route.get('/reports', [ReportController, 'index']).middleware(auth, authorizeRoute('viewReports'))
 * ```
 */
export function authorizeRoute(ability: string, ...subjects: (string | PolicyTarget)[]): Middleware {
  if (ability === '') throw new TypeError("The can middleware needs an ability: 'can:update,post'")
  const middleware: Middleware = async (request, next) => {
    await authorize(request, ability, ...subjects.map((subject) => (typeof subject === 'string' ? subjectOf(request, ability, subject) : subject)))
    return next()
  }
  return documented(readsBoundModels(middleware), {
    responses: {
      401: { description: 'No signed-in user, and the ability does not take guests' },
      403: { description: `The user may not ${ability}${subjects.length > 0 ? ` this ${subjects.map(nameOf).join(', ')}` : ''}` },
    },
  })
}

/** What a subject named in `can:ability,subject` stands for on this request. */
function subjectOf(request: Request, ability: string, name: string): unknown {
  const bound = request.model(name)
  if (bound !== undefined) return bound
  const value = request.param(name)
  // A gate may take the parameter as it is; a policy needs the row, which only binding loads.
  if (value !== undefined && Gate.has(ability)) return value
  if (value !== undefined) {
    throw new TypeError(`can:${ability},${name} on ${request.route() ?? request.uri()}: no model is bound to {${name}}: bind it on the route, .bind('${name}', Model)`)
  }
  const model = Gate.modelNamed(name)
  if (model) return model
  throw new TypeError(
    `can:${ability},${name} on ${request.route() ?? request.uri()}: "${name}" is neither a parameter of the route nor a ` +
      `model with a policy (register it in bootstrap/app.ts: Gate.policy(${name}, ${name}Policy))`,
  )
}

function nameOf(subject: string | PolicyTarget): string {
  return typeof subject === 'string' ? subject : subject.name
}
