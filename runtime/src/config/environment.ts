/**
 * Production mode: `NODE_ENV` or `APP_ENV` is `production` (`fw start` sets `NODE_ENV`). Then no error detail
 * reaches a client, whatever `APP_DEBUG` says.
 */
export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'production' || env.APP_ENV === 'production'
}

/**
 * The environment the application runs in, as Laravel's `app()->environment()` names it: `production` in
 * production mode (whichever of `NODE_ENV` and `APP_ENV` says so: under `fw start`, a `.env` that still says
 * `APP_ENV=local` is production all the same), else `APP_ENV`, else `local`.
 *
 * @example
 * ```ts
 * if (environment() === 'staging') router.use(basicAuth)
 * ```
 */
export function environment(env: NodeJS.ProcessEnv = process.env): string {
  if (isProduction(env)) return 'production'
  return env.APP_ENV || 'local'
}
