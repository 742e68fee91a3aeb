import { HttpError } from './HttpError.js'
import { Response } from './Response.js'

/** Messages by field, as Laravel gives them: `{ "title": ["Expected string, received number"] }`. */
export type ValidationMessages = Record<string, string[]>

/**
 * Input that failed validation: answered 422 with `{"error": "The given data was invalid.", "errors": {field: [message, …]}}`.
 * `request.validate(schema)` throws it; throw it yourself for a check of your own.
 *
 * @example
 * ```ts
 * throw new ValidationError({ email: ['The email has already been taken.'] })
 * ```
 */
export class ValidationError extends HttpError {
  readonly errors: ValidationMessages

  constructor(errors: ValidationMessages, message = 'The given data was invalid.') {
    super(422, message)
    this.name = 'ValidationError'
    this.errors = errors
  }

  override toResponse(): Response {
    return Response.json({ error: this.message, errors: this.errors }, this.status)
  }
}
