import type { StandardSchemaV1 } from '@standard-schema/spec'
import { ValidationError, type ValidationMessages } from './ValidationError.js'

/**
 * Validates a value with any Standard Schema validator (zod 4, valibot, arktype, …) and returns its typed
 * output, or throws a ValidationError (422) with the messages by field: `user.email` for a nested path,
 * `input` for the value as a whole.
 */
export async function validate<Schema extends StandardSchemaV1>(schema: Schema, value: unknown): Promise<StandardSchemaV1.InferOutput<Schema>> {
  if (typeof schema?.['~standard']?.validate !== 'function') {
    throw new TypeError('validate() takes a Standard Schema (zod 4, valibot, arktype, …): this value has no ["~standard"].validate')
  }
  let result = schema['~standard'].validate(value)
  if (result instanceof Promise) result = await result
  if (!result.issues) return result.value
  const errors: ValidationMessages = {}
  for (const issue of result.issues) {
    const field = issue.path?.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.') || 'input'
    ;(errors[field] ??= []).push(issue.message)
  }
  throw new ValidationError(errors)
}
