/**
 * What a check sees of the value it validates, as zod 4's `.check()` hands it to a function: the value, and the
 * issues found so far, to which a failing check adds its own.
 */
export interface CheckPayload {
  readonly value: unknown
  readonly issues: { readonly length: number; push(issue: { code: 'custom'; message: string; input: unknown }): unknown }
}

/**
 * A validation rule that asks the application's database (`unique`, `exists`). It plugs into zod 4 as it is,
 * an async check (`z.email().check(unique('users', 'email'))`); `passes` and `message` are for every other
 * validator (valibot's `v.checkAsync(rule.passes, rule.message)`) and for code of your own.
 *
 * @example
 * ```ts
 * const emailIsFree = unique('users', 'email')
 * if (!(await emailIsFree.passes('ada@example.com'))) throw new ValidationError({ email: [emailIsFree.message] })
 * ```
 */
export interface DatabaseRule {
  /** zod 4's check: adds the rule's message to the issues when the value fails, asks nothing when it already failed. */
  (payload: CheckPayload): Promise<void>
  /** Whether the value passes the rule. (`any`: a validator's check infers its input type from it, and any value may be asked.) */
  readonly passes: (value: any) => Promise<boolean>
  /** The message for a value that fails: `The email has already been taken.` */
  readonly message: string
}

/** The rule from its test and message: the zod check, with `passes` and `message` on it. */
export function databaseRule(passes: (value: unknown) => Promise<boolean>, message: string): DatabaseRule {
  const check = async (payload: CheckPayload): Promise<void> => {
    // A value that already failed (not an email, not a number) is not worth a query, nor a second message.
    if (payload.issues.length > 0) return
    if (!(await passes(payload.value))) payload.issues.push({ code: 'custom', message, input: payload.value })
  }
  return Object.assign(check, { passes, message })
}

/** `team_id` → `team id`: a column's name as a message says it. */
export function humanize(column: string): string {
  return column.replaceAll('_', ' ')
}
