import { databaseRule, humanize, type DatabaseRule } from './DatabaseRule.js'
import { isLookupValue, matchingValues, type RuleWhere } from './matchingValues.js'

export interface ExistsOptions {
  /** Only rows with these values count: `{ team_id: 3 }` for a project of the user's team. */
  where?: RuleWhere
  /** The message for a value that names no row (default `The selected <column> is invalid.`). */
  message?: string
}

/**
 * Passes when a row of `table` holds the value in `column`, as Laravel's `exists` rule: asked of the application's
 * database (`db()`), answered 422 naming the field by `request.validate()`, where an insert would have failed on its
 * foreign key. An array passes when every element is found. A missing value (null, undefined) passes (make the field
 * required in the schema); a value that cannot be in the column (`'abc'` for an integer key) fails, without an error.
 *
 * With zod 4, an async check (`request.validate` runs it); with any other validator, `passes` and `message`.
 *
 * @example
 * ```ts
 * const body = await request.validate(z.object({
 *   title: z.string(),
 *   category_id: z.number().int().check(exists('categories', 'id', { where: { team_id: team.id } })),
 *   tag_ids: z.array(z.number().int()).check(exists('tags', 'id')),
 * }))
 * ```
 */
export function exists(table: string, column: string, options: ExistsOptions = {}): DatabaseRule {
  const message = options.message ?? `The selected ${humanize(column)} is invalid.`
  return databaseRule(async (value) => {
    if (value === null || value === undefined) return true
    const values = Array.isArray(value) ? [...new Set(value)] : [value]
    if (!values.every(isLookupValue)) return false
    const found = await matchingValues(table, column, values, { where: options.where })
    return values.every((one) => found.has(String(one)))
  }, message)
}
