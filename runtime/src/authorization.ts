// `fw-runtime/authorization`: gates, policies and the `can` checks (Laravel's Gate and policies, Adonis' Bouncer).
// Gates and policies are registered in bootstrap/app.ts; routes guard with `.middleware('can:update,post')`, handlers
// with `request.authorize('update', post)`, views with `await can(request, 'update', post)`.
export { Gate, GateRegistry, type BeforeHook, type GateCallback, type PolicyClass, type PolicyTarget } from './authorization/Gate.js'
export { DEFAULT_DENIAL, type AbilityResult, type AuthorizationResult } from './authorization/AuthorizationResult.js'
export { abilities, authorize, can, inspect, type AuthorizingRequest } from './authorization/authorize.js'
export { authorizeRoute } from './authorization/authorizeRoute.js'
