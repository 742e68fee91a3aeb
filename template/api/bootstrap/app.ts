import { maintenanceMode, type Container, type Router } from 'fw-runtime'

/**
 * The one place that sets the application up before its routes load (Laravel's bootstrap/app.php):
 * service bindings, global middleware, middleware aliases and the error hook.
 */
export function configure(container: Container, router: Router): void {
  router.use(maintenanceMode())                   // 503 while `fw down` holds, but /health; first, for every request
  // container.singleton('mailer', Mailer)           a service, given to constructors as ({ mailer })
  // router.use(cors())                              middleware for every request (public/'s files are served already)
  // router.aliasMiddleware('auth', auth)            a name routes can use: .middleware('auth')
  // router.onError((error, request) => undefined)   a Response for errors of your own; undefined keeps the default
  // RateLimiter.for('api', (request) => Limit.perMinute(60).by(request.ip()))   a limiter routes use: .middleware('throttle:api')
}
