import { HttpError } from '../http/HttpError.js'

/**
 * A key with no file behind it on a disk. It is an `HttpError(404)`, so a handler that lets it through answers
 * `{"error": "File not found"}` with a 404; the key and the disk stay in the error for logs and tests.
 *
 * @example
 * ```ts
 * try { await storage().get('gone.txt') } catch (error) { if (error instanceof FileNotFoundError) … }
 * ```
 */
export class FileNotFoundError extends HttpError {
  constructor(
    readonly disk: string,
    readonly key: string,
    options: { cause?: unknown } = {},
  ) {
    super(404, 'File not found', options)
    this.name = 'FileNotFoundError'
  }

  /** The key and the disk, for logs (the 404 body does not name them). */
  override toString(): string {
    return `FileNotFoundError: no file "${this.key}" on the ${this.disk} disk`
  }
}
