import { databaseRule, humanize, type DatabaseRule } from './DatabaseRule.js'
import { isLookupValue, matchingValues, type RuleWhere } from './matchingValues.js'

export interface UniqueOptions {
  /** The row that may hold the value already, by its id: the one an update form edits. */
  ignore?: unknown
  /** The column `ignore` names a row by (default `id`). */
  idColumn?: string
  /** Only rows with these values count: `{ team_id: 3 }` for a name unique within a team. */
  where?: RuleWhere
  /** The message for a value that is taken (default `The <column> has already been taken.`). */
  message?: string
}

/**
 * Passes when no row of `table` holds the value in `column`, as Laravel's `unique` rule: asked of the application's
 * database (`db()`), answered 422 naming the field by `request.validate()`. A missing value (null, undefined) passes;
 * so does one that cannot be in the column. A race between two requests can still get past it: the database's own
 * unique index has the last word, and the router answers its violation 409 (see `ConstraintViolationError`).
 *
 * With zod 4, an async check (`request.validate` runs it); with any other validator, `passes` and `message`.
 *
 * @example
 * ```ts
 * const body = await request.validate(z.object({
 *   email: z.email().check(unique('users', 'email', { ignore: user.id })),
 * }))
 * // valibot: v.pipeAsync(v.string(), v.email(), v.checkAsync(emailIsFree.passes, emailIsFree.message))
 * ```
 */
export function unique(table: string, column: string, options: UniqueOptions = {}): DatabaseRule {
  const message = options.message ?? `The ${humanize(column)} has already been taken.`
  return databaseRule(async (value) => {
    if (!isLookupValue(value)) return true
    const taken = await matchingValues(table, column, [value], options)
    return taken.size === 0
  }, message)
}
