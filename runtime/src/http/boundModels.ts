import type { Middleware } from './Middleware.js'

const READS_BOUND_MODELS = Symbol.for('fw.readsBoundModels')

/**
 * Marks a middleware that reads the models route model binding loads (`request.model('post')`): on a route with
 * bound parameters they load right before the first such middleware, instead of just before the handler (as Laravel's
 * middleware priority puts SubstituteBindings before Authorize). `can:` is marked; an app's own may be too. Returns
 * the same function.
 *
 * @example
 * ```ts
 * const ownPostsOnly = readsBoundModels(async (request, next) => {
 *   if (request.model<Post>('post')?.author_id !== currentUser(request).id) throw new HttpError(403, 'Not your post')
 *   return next()
 * })
 * ```
 */
export function readsBoundModels<M extends Middleware>(middleware: M): M {
  Object.defineProperty(middleware, READS_BOUND_MODELS, { value: true, configurable: true })
  return middleware
}

/** Whether a middleware was marked with `readsBoundModels`. */
export function needsBoundModels(middleware: Middleware): boolean {
  return (middleware as unknown as Record<symbol, boolean | undefined>)[READS_BOUND_MODELS] === true
}
