import { HttpError } from '../http/HttpError.js'
import { Response } from '../http/Response.js'
import type { ValidationMessages } from '../http/ValidationError.js'
import { duplicateKeyColumns, foreignKeyColumns } from './mysqlConstraints.js'
import { foreignKeyFailures } from './sqliteForeignKeys.js'

/** A write the database refused for one of its constraints, as `constraintViolation()` reads it from the driver's error. */
export interface ConstraintViolation {
  /**
   * `unique`: the value is taken (a unique index or primary key). `foreignKey`: the row refers to a row that does not
   * exist. `referenced`: the write removed or changed a row that other rows still refer to.
   */
  readonly kind: 'unique' | 'foreignKey' | 'referenced'
  /** The columns of the row being written that the constraint covers, when the database says (in its order). */
  readonly columns: readonly string[]
}

/** A column name as PostgreSQL's detail writes it: bare, or double-quoted when it must be. */
const IDENTIFIER = /^(?:[A-Za-z_][\w$]*|"(?:[^"]|"")+")$/

/**
 * Reads a unique or foreign-key violation from a driver's error, on SQLite (better-sqlite3's
 * `SQLITE_CONSTRAINT_UNIQUE`, `_PRIMARYKEY`, `_FOREIGNKEY`), PostgreSQL (pg's and postgres.js's SQLSTATE 23505,
 * 23503) and MySQL (mysql2's `ER_DUP_ENTRY`, `ER_NO_REFERENCED_ROW_2`, `ER_ROW_IS_REFERENCED_2`): which kind, and the
 * columns; undefined for any other error.
 *
 * @example
 * ```ts
 * try { await User.create(values) }
 * catch (error) { if (constraintViolation(error)?.kind === 'unique') return Response.redirect('/login'); throw error }
 * ```
 */
export function constraintViolation(error: unknown): ConstraintViolation | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { code, message, detail } = error as { code?: unknown; message?: unknown; detail?: unknown }
  switch (code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY': {
      // "UNIQUE constraint failed: users.team_id, users.email"; an index on an expression is named instead.
      const list = /constraint failed: (.+)$/.exec(String(message))?.[1] ?? ''
      const columns = list.startsWith('index ') ? [] : list.split(', ').map((column) => column.slice(column.lastIndexOf('.') + 1))
      return { kind: 'unique', columns }
    }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY': {
      const failure = foreignKeyFailures.get(error)
      return { kind: failure?.referenced ? 'referenced' : 'foreignKey', columns: failure?.columns ?? [] }
    }
    case '23505':
      return { kind: 'unique', columns: keyColumns(detail) }
    case '23503':
      // "Key (author_id)=(99) is not present in table "users"." or "Key (id)=(1) is still referenced from table "posts"."
      if (/is still referenced from/.test(String(detail))) return { kind: 'referenced', columns: [] }
      return { kind: 'foreignKey', columns: keyColumns(detail) }
    case 'ER_DUP_ENTRY':
      return { kind: 'unique', columns: duplicateKeyColumns.get(error) ?? [] }
    case 'ER_NO_REFERENCED_ROW_2':
      return { kind: 'foreignKey', columns: foreignKeyColumns(String(message)) }
    case 'ER_ROW_IS_REFERENCED_2':
      return { kind: 'referenced', columns: [] }
    default:
      return undefined
  }
}

/** The columns of PostgreSQL's `Key (team_id, email)=(…)` detail; none for an index on an expression. */
function keyColumns(detail: unknown): string[] {
  const list = /^Key \((.+?)\)=\(/.exec(String(detail ?? ''))?.[1]
  if (list === undefined) return []
  const columns = list.split(', ')
  if (!columns.every((column) => IDENTIFIER.test(column))) return []
  return columns.map((column) => (column.startsWith('"') ? column.slice(1, -1).replaceAll('""', '"') : column))
}

/**
 * A unique or foreign-key violation that reached the database, as the client hears of it: the router turns the
 * driver's error into this one, never a 500 with the SQL. A value taken (a race past the `unique` rule, or no rule)
 * is 409 `{"error": "The email has already been taken.", "errors": {"email": [...]}}`; a key that names no row is 422
 * `{"error": "The selected author id is invalid.", "errors": {"author_id": [...]}}`, as the `exists` rule answers; a
 * row still referenced by others is 409. The driver's error stays in `cause`, for the log, never in the body.
 *
 * @example
 * ```ts
 * const violation = ConstraintViolationError.from(error) // undefined for any other error
 * ```
 */
export class ConstraintViolationError extends HttpError {
  /** Messages by field, as a ValidationError's: empty when the database did not say which column. */
  readonly errors: ValidationMessages
  readonly violation: ConstraintViolation

  constructor(violation: ConstraintViolation, options: { cause?: unknown } = {}) {
    const field = fieldOf(violation)
    const message = messageFor(violation.kind, field)
    super(violation.kind === 'foreignKey' ? 422 : 409, message, { cause: options.cause })
    this.name = 'ConstraintViolationError'
    this.violation = violation
    this.errors = field === undefined ? {} : { [field]: [message] }
  }

  /** The error for a driver's unique or foreign-key violation; undefined for any other error. */
  static from(error: unknown): ConstraintViolationError | undefined {
    if (error instanceof HttpError) return undefined
    const violation = constraintViolation(error)
    return violation && new ConstraintViolationError(violation, { cause: error })
  }

  override toResponse(): Response {
    return Response.json({ error: this.message, errors: this.errors }, this.status)
  }
}

/**
 * The field to name: for a composite unique key (`team_id, email`), the last column, the one a form asks for
 * (the others scope it); for a foreign key, its first column.
 */
function fieldOf({ kind, columns }: ConstraintViolation): string | undefined {
  if (kind === 'referenced') return undefined
  return kind === 'unique' ? columns.at(-1) : columns[0]
}

function messageFor(kind: ConstraintViolation['kind'], field: string | undefined): string {
  const name = field?.replaceAll('_', ' ')
  if (kind === 'unique') return name ? `The ${name} has already been taken.` : 'The record conflicts with one that already exists.'
  if (kind === 'foreignKey') return name ? `The selected ${name} is invalid.` : 'The record refers to one that does not exist.'
  return 'The record is still referenced by other records.'
}
