import type { StandardSchemaV1 } from '@standard-schema/spec'
import fastJsonStringify from 'fast-json-stringify'
import { isProduction } from '../config/environment.js'
import { Response } from '../http/Response.js'
import { jsonSchemaOf, type JsonSchema } from '../openapi/jsonSchemaOf.js'
import type { RouteDefinition } from './RouteDefinition.js'

type Serializer = (value: unknown) => string

/** One status a route declares with a schema: the schema, and its compiled serialiser. */
interface Held {
  readonly schema: StandardSchemaV1
  /** `GET /authors .returns(200, schema)`, for the messages. */
  readonly what: string
  /** The JSON of a value in the declared shape, undeclared properties left out; undefined when the schema offers no JSON Schema. */
  serializer: Serializer | undefined
  /** False until the serialiser is compiled: in development, on the status's first answer. */
  compiled: boolean
}

/**
 * A route's declared responses (`.returns(status, schema)`), compiled once when the routes compile, that hold the
 * handler's JSON answers to them: `.returns()` is also Fw's API-resource layer.
 *
 * - In production the JSON of a declared status is serialised to the declared shape with fast-json-stringify,
 *   compiled from the schema's JSON Schema (as Fastify's response schemas are): properties the schema does not
 *   declare are left out, so a handler that returns whole rows sends only what the contract names.
 * - In development and tests the answer is first checked against the schema, as the client would receive it (its
 *   JSON): a mismatch is a 500 whose message (with `APP_DEBUG`) and log line name the route, the status and the
 *   failing field (`GET /authors answered 200 outside its declared schema: authors.0.name: …`); so is a 2xx status
 *   the route does not declare when it declares its 2xx responses. An answer that passes is shaped as in production.
 *
 * Production compiles every serialiser here, when the routes compile, and a request pays only for the call.
 * Compiling one costs a few milliseconds (the JSON Schema, then fast-json-stringify's code), so development
 * compiles each on the status's first answer instead: `fw serve` restarts the app on every change, and an app of
 * 400 declared routes would wait seconds for it.
 *
 * Only the handler's own answers are held: the answers of middleware and errors (HttpError, ValidationError) are
 * not, nor a body that is not JSON (a page for a browser on the same status).
 *
 * @example
 * ```ts
 * const Author = z.object({ id: z.number().int(), name: z.string() })
 * Route.get('/authors', () => ({ authors: rows })).returns(200, z.object({ authors: z.array(Author) }))
 * // production: {"authors":[{"id":1,"name":"Ada"}]}, without the rows' email, admin flag and timestamps
 * ```
 */
export class DeclaredResponses {
  private constructor(
    private readonly route: RouteDefinition,
    /** The statuses declared with a schema. */
    private readonly held: ReadonlyMap<number, Held>,
    /** Every 2xx status the route declares; null when it declares none (then any 2xx is its own affair). */
    private readonly successes: readonly number[] | null,
    private readonly production: boolean,
  ) {}

  /**
   * The declared responses of a route, compiled; undefined when there is nothing to hold (no `.returns()` with a
   * schema, and in development no declared 2xx either), so that such a route costs nothing more. In production a
   * schema whose JSON Schema fast-json-stringify cannot compile throws here, at startup, naming the route and the
   * status (in development, at its first answer).
   */
  static for(route: RouteDefinition, production = isProduction()): DeclaredResponses | undefined {
    const responses = route.declared?.responses
    if (responses === undefined) return undefined
    const held = new Map<number, Held>()
    const successes: number[] = []
    for (const [key, { schema }] of Object.entries(responses)) {
      const status = Number(key)
      if (status >= 200 && status < 300) successes.push(status)
      if (schema === undefined) continue
      const what = `${route} .returns(${status}, schema)`
      const serializer = production ? serializerOf(schema, what) : undefined
      // In production a schema without JSON Schema has nothing to shape with: its answers go out as they are.
      if (!production || serializer !== undefined) held.set(status, { schema, what, serializer, compiled: production })
    }
    if (held.size === 0 && (production || successes.length === 0)) return undefined
    return new DeclaredResponses(route, held, successes.length > 0 ? successes : null, production)
  }

  /** The answer to a plain value the handler returned: its JSON, 200. */
  plain(value: unknown): Response | Promise<Response> {
    const held = this.held.get(200)
    if (held === undefined) {
      this.assertDeclared(200)
      return Response.json(value)
    }
    if (this.production) return Response.serializedJson(this.serialize(held, 200, value), 200)
    return this.checked(held, 200, JSON.parse(JSON.stringify(value) ?? 'null'), undefined)
  }

  /** The Response the handler returned, checked and shaped when its status is declared with a schema and it is JSON. */
  answer(response: Response): Response | Promise<Response> {
    const status = response.getStatusCode()
    const held = this.held.get(status)
    if (held === undefined) {
      this.assertDeclared(status)
      return response
    }
    if (!isJson(response)) return response
    if (this.production) {
      const value = response.jsonValue !== undefined ? response.jsonValue : JSON.parse(response.getContent())
      return response.setContent(this.serialize(held, status, value))
    }
    return this.checked(held, status, JSON.parse(response.getContent()), response)
  }

  /** Development: the JSON as the client receives it, checked by the schema, then shaped. */
  private checked(held: Held, status: number, json: unknown, response: Response | undefined): Response | Promise<Response> {
    const result = held.schema['~standard'].validate(json)
    if (result instanceof Promise) return result.then((settled) => this.passed(settled, held, status, json, response))
    return this.passed(result, held, status, json, response)
  }

  private passed(result: StandardSchemaV1.Result<unknown>, held: Held, status: number, json: unknown, response: Response | undefined): Response {
    if (result.issues) {
      const problems = result.issues.map((issue) => `${pathOf(issue) || '(the body)'}: ${issue.message}`)
      throw new Error(`${this.route} answered ${status} outside its declared schema (.returns(${status}, …)): ${problems.join('; ')}`)
    }
    if (!held.compiled) {
      held.serializer = serializerOf(held.schema, held.what)
      held.compiled = true
    }
    const text = held.serializer === undefined ? undefined : this.serialize(held, status, json)
    if (response !== undefined) return text === undefined ? response : response.setContent(text)
    return Response.serializedJson(text ?? JSON.stringify(json), status)
  }

  private serialize(held: Held, status: number, value: unknown): string {
    try {
      return held.serializer!(value)
    } catch (error) {
      // fast-json-stringify refuses what it cannot write in the shape: a required property missing, "abc" for an integer.
      throw new Error(`${this.route} answered ${status} that does not fit its declared schema (.returns(${status}, …)): ${(error as Error).message}`, { cause: error })
    }
  }

  /** Development: a 2xx status that a route declaring its 2xx responses does not declare fails, naming them. */
  private assertDeclared(status: number): void {
    if (this.production || this.successes === null || status < 200 || status >= 300 || this.successes.includes(status)) return
    throw new Error(`${this.route} answered ${status}, a status it does not declare: it declares ${this.successes.join(', ')} (add .returns(${status}, …))`)
  }
}

/** The fast-json-stringify serialiser of a schema's output; undefined when the schema offers no JSON Schema. */
function serializerOf(schema: StandardSchemaV1, what: string): Serializer | undefined {
  const json = jsonSchemaOf(schema, 'output')
  if (json === undefined) return undefined
  try {
    // Any JSON Schema of 2020-12 is taken; the library's types list only the shapes it writes fastest.
    return fastJsonStringify(openObjects(json) as unknown as fastJsonStringify.AnySchema) as Serializer
  } catch (error) {
    throw new Error(`${what}: its JSON Schema cannot be compiled into a serialiser: ${(error as Error).message}`, { cause: error })
  }
}

/**
 * The JSON Schema without `additionalProperties: false`. fast-json-stringify leaves undeclared properties out
 * anyway; kept, it would make every branch of a union (`anyOf`) refuse an object that has more than the branch
 * declares, and fast-json-stringify, which picks the branch by validating, would find none.
 */
function openObjects(json: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(json), (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || (value as JsonSchema).additionalProperties !== false) return value
    const { additionalProperties: _closed, ...open } = value as JsonSchema
    return open
  }) as JsonSchema
}

function pathOf(issue: StandardSchemaV1.Issue): string {
  return issue.path?.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.') ?? ''
}

function isJson(response: Response): boolean {
  const type = response.getHeader('content-type') ?? ''
  return type.startsWith('application/json') || /^[^;]*\+json/.test(type)
}
