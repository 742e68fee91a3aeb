import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { AuthBody } from './authBodies.js'

type JsonSchema = Record<string, unknown>

/**
 * An answer of make:auth's routes as a contract (`.returns(200, signedInAnswer)`), so that `/openapi.json`, `/docs`
 * and the typed client describe it. Its check holds a value to the JSON Schema it gives: an object with the required
 * properties, each of its type (the few types these answers use: string, integer, boolean, null, object).
 */
function authAnswer<Output>(properties: Record<string, JsonSchema>, required: readonly string[]): AuthBody<Output> {
  const schema: JsonSchema = { type: 'object', properties, required }
  return {
    '~standard': {
      version: 1,
      vendor: 'fw',
      validate(value) {
        const issues = problems(schema, value, [])
        return issues.length > 0 ? { issues } : { value: value as Output }
      },
      jsonSchema: { input: () => schema, output: () => schema },
    },
  }
}

/** Where the value strays from the schema, each with its path; none when it conforms. */
function problems(schema: JsonSchema, value: unknown, path: PropertyKey[]): StandardSchemaV1.Issue[] {
  const types = ([] as unknown[]).concat(schema.type ?? [])
  if (types.length > 0 && !types.some((type) => isOfType(type, value))) {
    return [{ message: `Expected ${types.join(' or ')}, got ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`, path }]
  }
  if (schema.const !== undefined && value !== schema.const) return [{ message: `Expected ${JSON.stringify(schema.const)}`, path }]
  if (typeof value !== 'object' || value === null || schema.properties === undefined) return []
  const object = value as Record<string, unknown>
  const missing = ((schema.required ?? []) as string[]).filter((key) => object[key] === undefined)
  return [
    ...missing.map((key) => ({ message: `Missing ${key}`, path: [...path, key] })),
    ...Object.entries(schema.properties as Record<string, JsonSchema>).flatMap(([key, property]) =>
      object[key] === undefined ? [] : problems(property, object[key], [...path, key]),
    ),
  ]
}

function isOfType(type: unknown, value: unknown): boolean {
  if (type === 'null') return value === null
  if (type === 'integer') return Number.isInteger(value)
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value)
  return typeof value === type
}

const text = { type: 'string' }
const message = { type: 'string', description: 'What happened, in a sentence for the user' }
const user = {
  type: 'object',
  description: 'The user: never the password hash',
  properties: { id: { type: 'integer' }, name: text, email: text },
  required: ['id', 'name', 'email'],
}
const token = { type: 'string', description: 'A bearer token: send it as `Authorization: Bearer <token>`' }
const tokenType = { const: 'Bearer' }
const expiresAt = { type: 'string', format: 'date-time', description: 'When the token stops working' }

/** `{ message }`: what a route did, for the user (a registration to verify, a link sent, a password reset, …). */
export const messageAnswer = authAnswer<{ message: string }>({ message }, ['message'])

/** POST /login: the user, with a bearer token for an API call (a JSON body); a JSON call with the session cookie gets the user alone. */
export const signedInAnswer = authAnswer<{ user: { id: number; name: string; email: string }; token?: string; token_type?: 'Bearer'; expires_at?: string }>(
  { user, token, token_type: tokenType, expires_at: expiresAt },
  ['user'],
)

/** GET /me: the signed-in user, and when the email was verified (null while it is not). */
export const meAnswer = authAnswer<{ user: { id: number; name: string; email: string }; email_verified_at: string | null }>(
  { user, email_verified_at: { type: ['string', 'null'], format: 'date-time' } },
  ['user', 'email_verified_at'],
)

/** POST /password: the password changed, and a new bearer token for this client (every other one was revoked). */
export const passwordChangedAnswer = authAnswer<{ message: string; token: string; token_type: 'Bearer'; expires_at: string }>(
  { message, token, token_type: tokenType, expires_at: expiresAt },
  ['message', 'token', 'token_type', 'expires_at'],
)

/** GET /email/verify: whether the email is verified, and which email it is. */
export const verificationNoticeAnswer = authAnswer<{ message: string; email: string }>({ message, email: text }, ['message', 'email'])

/** GET /reset-password/{token}: a good link's token and email, for an app's own form. */
export const resetLinkAnswer = authAnswer<{ token: string; email: string }>({ token: text, email: text }, ['token', 'email'])
