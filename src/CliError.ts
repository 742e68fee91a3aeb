/** A failure the user can act on: printed as one line, exit code 1, no stack. */
export class CliError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CliError'
  }
}
