/** The reason a denial gives when the gate or policy gave none (Laravel's). */
export const DEFAULT_DENIAL = 'This action is unauthorized.'

/** The reason a guest is turned away by an ability that does not take guests. */
export const GUEST_DENIAL = 'Unauthenticated'

/**
 * What a gate or a policy decided, as `Gate.inspect` gives it: allowed or not, the reason of a denial, and the status
 * a request answers for it (401 for a guest an ability does not take, 403 otherwise).
 *
 * @example
 * ```ts
 * const result = await Gate.inspect(user, 'update', Post, post)
 * if (!result.allowed) console.log(result.message) // 'You do not own this post'
 * ```
 */
export type AuthorizationResult = {
  readonly allowed: boolean
  /** Why it was denied: the reason the gate or policy returned, else `This action is unauthorized.`; undefined when allowed. */
  readonly message: string | undefined
  /** 200 when allowed; 401 for a guest the ability does not take; 403 for any other denial. */
  readonly status: 200 | 401 | 403
}

/**
 * What a gate, a policy method or a `before` hook may return: `true` allows; `false` denies; a string denies with that
 * reason (shown to the client in the 403). From a `before` hook, `undefined` leaves the decision to the ability; from
 * an ability, `undefined` denies.
 */
export type AbilityResult = boolean | string | undefined | void

export const ALLOWED: AuthorizationResult = Object.freeze({ allowed: true, message: undefined, status: 200 })

/** The result of a gate's, a policy's or a hook's answer (`undefined` and `false` deny with the default reason). */
export function resultOf(answer: AbilityResult): AuthorizationResult {
  if (answer === true) return ALLOWED
  const message = typeof answer === 'string' && answer !== '' ? answer : DEFAULT_DENIAL
  return { allowed: false, message, status: 403 }
}

/** A guest turned away before the ability is asked: 401, so that a client knows that signing in may help. */
export const GUEST_DENIED: AuthorizationResult = Object.freeze({ allowed: false, message: GUEST_DENIAL, status: 401 })
