/**
 * A property-based fuzz of a running application that reads only its OpenAPI document, as Schemathesis does:
 * for every operation, requests built from the document's schemas (path parameters, query, body), valid and
 * invalid, with and without the credentials its `security` names, and for each answer the checks a client
 * generated from the document relies on:
 * - no 5xx;
 * - the status is one the operation documents, with the media type and the headers documented for it;
 * - a JSON body matches the documented schema (ajv, JSON Schema 2020-12);
 * - invalid input (a body that is not an object, a required field left out, a wrong type, a string too short or
 *   off its pattern, a path parameter off its pattern) is refused with a 4xx, never accepted;
 * - valid input is not refused as invalid (400 or 422), but where `refusals` lists the status for the operation
 *   (a 422 that answers valid input: wrong credentials, an unknown reset token);
 * - an operation that needs credentials does not answer 2xx without them;
 * - stateful links: for `POST /things`, `GET /things/{id}` and `DELETE /things/{id}`, a created resource is read
 *   back, and is not found once deleted.
 * Built on fast-check (inputs) and ajv (answers). Never throws on a finding: the report lists them.
 *
 * ```ts
 * const report = await fuzzApi({ url: server.url, document, credentials: { bearerAuth: { Authorization: `Bearer ${token}` } } })
 * expect(report.failures).toEqual([])
 * ```
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { SchemaArbitraries, type Schema } from './schemaArbitraries.js'

export interface FuzzOptions {
  /** Where the application answers: `http://127.0.0.1:PORT`. */
  url: string
  /** Its OpenAPI 3.1 document, as `/openapi.json` or `fw openapi` gives it. */
  document: Schema
  /** The headers that satisfy each security scheme, by scheme name: `{ apiKey: { 'X-API-Key': key } }`. */
  credentials: Record<string, Record<string, string>>
  /** Generated requests per operation and kind (valid, invalid, without credentials); 20 by default. */
  runs?: number
  /** fast-check's seed, for a run to be repeated; printed in the report. */
  seed?: number
  /**
   * The 400 or 422 with which an operation (`METHOD /path`) answers input its schemas allow, for a reason a schema
   * cannot say: `{ 'POST /login': [422] }` for wrong credentials, an unknown token.
   */
  refusals?: Readonly<Record<string, readonly number[]>>
  /** Collections that store nothing by design (the seed's sample `/users` echo what they are sent): no create-read-delete. */
  unstored?: readonly string[]
  /** `METHOD /path` of operations left out (one that ends the session it runs with: `POST /logout`). */
  exclude?: readonly string[]
  /** Only these operations (`METHOD /path`), for a focused run. */
  only?: readonly string[]
}

export interface FuzzReport {
  requests: number
  seed: number
  /** One line per finding: the operation, the request, what the answer broke. */
  failures: string[]
}

interface Operation {
  method: string
  path: string
  id: string
  spec: Schema
}

interface Sent {
  path: string
  query?: Record<string, string>
  body?: unknown
  headers: Record<string, string>
}

type Kind = 'valid' | 'invalid' | 'anonymous'

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head']
/** What clients send when they do not ask for HTML: fetch's and curl's default, none, and JSON. */
const NON_HTML_ACCEPT = [undefined, '*/*', 'application/json']

export async function fuzzApi(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? Date.now() % 2 ** 31
  const runs = options.runs ?? 20
  const fuzz = new Fuzz(options, seed)
  const operations = fuzz.operations()
  let round = 0
  for (const operation of operations) {
    for (const kind of ['valid', 'invalid', 'anonymous'] as const) {
      const requests = fuzz.requests(operation, kind)
      if (!requests) continue
      for (const request of fc.sample(requests, { numRuns: runs, seed: seed + round++ })) await fuzz.check(operation, kind, request)
    }
  }
  await fuzz.checkLinks(operations)
  return { requests: fuzz.sent, seed, failures: fuzz.failures }
}

class Fuzz {
  sent = 0
  readonly failures: string[] = []
  private readonly schemas: SchemaArbitraries
  private readonly ajv: Ajv2020
  private readonly validators = new Map<Schema, ValidateFunction>()
  /** One finding per operation and problem: a thousand requests that break one rule are one line. */
  private readonly seen = new Set<string>()

  constructor(private readonly options: FuzzOptions, private readonly seed: number) {
    this.schemas = new SchemaArbitraries(options.document)
    // Formats are left to the patterns beside them (zod writes both); ajv alone knows none of them.
    this.ajv = new Ajv2020({ strict: false, validateFormats: false })
    this.ajv.addSchema({ $id: 'fw-document', components: options.document.components ?? {} })
  }

  operations(): Operation[] {
    const found: Operation[] = []
    for (const [path, item] of Object.entries<Schema>(this.options.document.paths ?? {})) {
      for (const method of METHODS) {
        const spec = item[method]
        if (!spec) continue
        const id = `${method.toUpperCase()} ${path}`
        if (this.options.exclude?.includes(id)) continue
        if (this.options.only && !this.options.only.includes(id)) continue
        found.push({ method: method.toUpperCase(), path, id, spec: { ...spec, parameters: [...(item.parameters ?? []), ...(spec.parameters ?? [])] } })
      }
    }
    return found
  }

  /** The requests of one kind for an operation; undefined when the kind does not apply to it. */
  requests(operation: Operation, kind: Kind): fc.Arbitrary<Sent> | undefined {
    const secured = (operation.spec.security ?? this.options.document.security ?? []).length > 0
    if (kind === 'anonymous' && !secured) return undefined
    const parameters: Schema[] = operation.spec.parameters
    const pathParams = parameters.filter((parameter) => parameter.in === 'path')
    const queryParams = parameters.filter((parameter) => parameter.in === 'query')
    const bodySchema = operation.spec.requestBody?.content?.['application/json']?.schema as Schema | undefined

    const validPath = fc.record(Object.fromEntries(pathParams.map((parameter) => [parameter.name, this.pathValue(parameter.schema ?? {})])))
    const queryShape: Record<string, fc.Arbitrary<string>> = Object.fromEntries(queryParams.map((parameter) => [parameter.name, this.schemas.valid(parameter.schema ?? {}).map(queryText)]))
    const validQuery = fc.record(queryShape, { requiredKeys: queryParams.filter((parameter) => parameter.required).map((parameter) => parameter.name as string) })
    const validBody = bodySchema ? this.schemas.valid(bodySchema).map(confirmed) : fc.constant(undefined)
    const accept = this.acceptFor(operation)
    const headers = kind === 'anonymous' ? fc.constant({}) : fc.constant(this.credentialsFor(operation))
    const build = (path: Record<string, unknown>, query: Record<string, unknown>, body: unknown, credentials: Record<string, string>, acceptHeader: string | undefined): Sent => ({
      path: operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(String(path[name]))),
      ...(Object.keys(query).length > 0 ? { query: query as Record<string, string> } : {}),
      ...(bodySchema ? { body } : {}),
      headers: { ...credentials, ...(acceptHeader ? { Accept: acceptHeader } : {}) },
    })
    if (kind !== 'invalid') return fc.tuple(validPath, validQuery, validBody, headers, accept).map((parts) => build(...parts))

    // Invalid: one part made wrong, the others valid.
    const wrongs: fc.Arbitrary<Sent & { why: string }>[] = []
    if (bodySchema) {
      const invalidBody = this.schemas.invalid(bodySchema)
      if (invalidBody) wrongs.push(fc.tuple(validPath, validQuery, invalidBody, headers, accept).map(([p, q, bad, h, a]) => ({ ...build(p, q, bad.value, h, a), why: `body: ${bad.why}` })))
    }
    for (const parameter of queryParams) {
      const refused = this.schemas.refusedScalars(parameter.schema ?? {}).filter((bad) => !acceptedAsText(this.schemas, parameter.schema ?? {}, bad.value))
      if (refused.length === 0) continue
      wrongs.push(fc.tuple(validPath, validQuery, validBody, headers, accept, fc.constantFrom(...refused)).map(([p, q, b, h, a, bad]) => ({
        ...build(p, { ...q, [parameter.name]: queryText(bad.value) }, b, h, a),
        why: `query ${parameter.name}: ${bad.why}`,
      })))
    }
    for (const parameter of pathParams) {
      const refused = this.schemas.refusedScalars(parameter.schema ?? {}).filter((bad) => typeof bad.value === 'string' && bad.value !== '' && !/^\.{1,2}$/.test(bad.value))
      if (refused.length === 0) continue
      wrongs.push(fc.tuple(validPath, validQuery, validBody, headers, accept, fc.constantFrom(...refused)).map(([p, q, b, h, a, bad]) => ({
        ...build({ ...p, [parameter.name]: bad.value }, q, b, h, a),
        why: `path ${parameter.name}: ${bad.why}`,
      })))
    }
    return wrongs.length > 0 ? fc.oneof(...wrongs) : undefined
  }

  async check(operation: Operation, kind: Kind, request: Sent & { why?: string }): Promise<void> {
    const answer = await this.send(operation, request)
    const described = `${operation.id} (${kind}${request.why ? `, ${request.why}` : ''}): ${describe(operation, request)} → ${answer.status}`
    const fail = (problem: string) => {
      const key = `${operation.id} ${kind} ${problem.replace(/\d+/g, 'N')}`
      if (this.seen.has(key)) return
      this.seen.add(key)
      this.failures.push(`${described}: ${problem}\n    body: ${answer.text.slice(0, 300)}`)
    }
    if (answer.status >= 500) return fail('a server error')
    const documented = this.documentedResponse(operation, answer.status)
    if (!documented) return fail(`status ${answer.status} is not documented (documented: ${Object.keys(operation.spec.responses ?? {}).join(', ')})`)
    this.checkAgainstDocument(documented, answer, fail)
    const ok = answer.status >= 200 && answer.status < 300
    if (kind === 'invalid' && ok) fail('invalid input accepted')
    if (kind === 'anonymous' && ok) fail('answered without credentials')
    if (kind === 'valid' && (answer.status === 400 || answer.status === 422) && !this.options.refusals?.[operation.id]?.includes(answer.status)) {
      fail('valid input refused')
    }
  }

  /** Create, read, delete, read again, for each collection with a `POST` and an item path with `GET` and `DELETE`. */
  async checkLinks(operations: Operation[]): Promise<void> {
    for (const create of operations.filter((operation) => operation.method === 'POST' && !this.options.unstored?.includes(operation.path))) {
      const item = operations.find((operation) => operation.method === 'GET' && new RegExp(`^${escape(create.path)}/\\{[^}/]+\\}$`).test(operation.path))
      const remove = item && operations.find((operation) => operation.method === 'DELETE' && operation.path === item.path)
      if (!item || !remove) continue
      const fail = (problem: string) => this.failures.push(`${create.id} → ${item.id} → ${remove.id}: ${problem}`)
      const requests = this.requests(create, 'valid')!
      let created: Answer | undefined
      for (const request of fc.sample(requests, { numRuns: 10, seed: this.seed })) {
        const answer = await this.send(create, request)
        if (answer.status >= 200 && answer.status < 300) {
          created = answer
          break
        }
      }
      if (!created) {
        fail('no valid request created anything (10 tried)')
        continue
      }
      const key = keyOf(created.json)
      if (key === undefined) {
        fail(`cannot find the new resource's id in ${created.text.slice(0, 200)}`)
        continue
      }
      const at = item.path.replace(/\{[^}]+\}/, encodeURIComponent(String(key)))
      const headers = { ...this.credentialsFor(item), Accept: 'application/json' }
      const read = await this.send(item, { path: at, headers })
      if (read.status !== 200) fail(`GET ${at} after creating it answered ${read.status}: ${read.text.slice(0, 200)}`)
      const deleted = await this.send(remove, { path: at, headers: { ...this.credentialsFor(remove), Accept: 'application/json' } })
      if (deleted.status < 200 || deleted.status >= 300) fail(`DELETE ${at} answered ${deleted.status}: ${deleted.text.slice(0, 200)}`)
      const gone = await this.send(item, { path: at, headers })
      if (gone.status !== 404) fail(`GET ${at} after deleting it answered ${gone.status}, not 404: ${gone.text.slice(0, 200)}`)
      const again = await this.send(remove, { path: at, headers: { ...this.credentialsFor(remove), Accept: 'application/json' } })
      if (again.status !== 404) fail(`DELETE ${at} a second time answered ${again.status}, not 404`)
    }
  }

  private async send(operation: Operation, request: Sent): Promise<Answer> {
    this.sent++
    const query = request.query ? `?${new URLSearchParams(request.query)}` : ''
    const headers: Record<string, string> = { ...request.headers }
    let body: string | undefined
    if (request.body !== undefined || 'body' in request) {
      headers['Content-Type'] = 'application/json'
      body = request.body === undefined ? '' : JSON.stringify(request.body)
    }
    const response = await fetch(`${this.options.url}${request.path}${query}`, { method: operation.method, headers, body, redirect: 'manual' })
    const text = await response.text()
    let json: unknown
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
    }
    return { status: response.status, headers: response.headers, text, json }
  }

  /** The response the document gives for `status`, a shared one (`$ref` to `components.responses`) followed. */
  private documentedResponse(operation: Operation, status: number): Schema | undefined {
    const responses: Record<string, Schema> = operation.spec.responses ?? {}
    const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default
    if (typeof response?.$ref !== 'string') return response
    const shared = /^#\/components\/responses\/([^/]+)$/.exec(response.$ref)?.[1]
    const found = shared === undefined ? undefined : (this.options.document.components?.responses?.[shared] as Schema | undefined)
    if (found === undefined) throw new Error(`${operation.id}: the document's ${status} is ${response.$ref}, which it does not hold`)
    return found
  }

  private checkAgainstDocument(documented: Schema, answer: Answer, fail: (problem: string) => void): void {
    for (const name of Object.keys(documented.headers ?? {})) {
      if (!answer.headers.has(name)) fail(`no ${name} header, which the document promises`)
    }
    const content: Record<string, Schema> | undefined = documented.content
    if (!content || Object.keys(content).length === 0) return
    const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim()
    const media = content[type] ?? Object.entries(content).find(([name]) => name.endsWith('/*') && type.startsWith(name.slice(0, -1)))?.[1]
    if (!media) return fail(`answered ${type || 'no content type'}, documented ${Object.keys(content).join(', ')}`)
    if (!type.includes('json') || !media.schema) return
    if (answer.json === undefined) return fail('a JSON content type with a body that is not JSON')
    const validate = this.validatorFor(media.schema)
    if (!validate(answer.json)) {
      const [first] = validate.errors ?? []
      fail(`the body is outside its schema: ${first?.instancePath || '(root)'} ${first?.message ?? ''}`)
    }
  }

  private validatorFor(schema: Schema): ValidateFunction {
    let validate = this.validators.get(schema)
    if (!validate) {
      validate = this.ajv.compile(rebaseRefs(schema))
      this.validators.set(schema, validate)
    }
    return validate
  }

  private pathValue(schema: Schema): fc.Arbitrary<string> {
    // A path segment that is empty, `.` or `..` changes the path itself on the way (fetch normalises it).
    return this.schemas.valid(schema).map(queryText).filter((text) => text !== '' && !/^\.{1,2}$/.test(text))
  }

  /** The headers for the first scheme of the operation's security that the options have credentials for. */
  private credentialsFor(operation: Operation): Record<string, string> {
    const requirements: Record<string, unknown>[] = operation.spec.security ?? this.options.document.security ?? []
    for (const requirement of requirements) {
      const names = Object.keys(requirement)
      if (names.every((name) => this.options.credentials[name])) return Object.assign({}, ...names.map((name) => this.options.credentials[name]))
    }
    return {}
  }

  /** A JSON operation is asked for as fetch, curl and generated clients do; a page as a browser does. */
  private acceptFor(operation: Operation): fc.Arbitrary<string | undefined> {
    const types = Object.values<Schema>(operation.spec.responses ?? {}).flatMap((response) => Object.keys(response.content ?? {}))
    if (types.length > 0 && types.every((type) => type === 'text/html')) return fc.constant('text/html,application/xhtml+xml,*/*;q=0.8')
    return fc.constantFrom(...NON_HTML_ACCEPT)
  }
}

interface Answer {
  status: number
  headers: Headers
  text: string
  json: unknown
}

/**
 * A body with each `<field>_confirmation` equal to its `<field>` (Laravel's `confirmed` rule, which JSON Schema cannot
 * say): input the schema allows and a person would send.
 */
function confirmed(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body
  const record = { ...(body as Record<string, unknown>) }
  for (const field of Object.keys(record)) {
    const original = field.endsWith('_confirmation') ? field.slice(0, -'_confirmation'.length) : undefined
    if (original && original in record) record[field] = record[original]
  }
  return record
}

/** A value as it travels in a query string or a path. */
function queryText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** Whether a refused value reads as a valid one once it is text (a query's `12345` for a string is `"12345"`). */
function acceptedAsText(schemas: SchemaArbitraries, schema: Schema, value: unknown): boolean {
  const types = schemas.types(schema)
  return typeof value !== 'string' && (types.includes('string') || types.length === 0)
}

/** `#/components/…` refs pointed at the document's components, registered with ajv as `fw-document`. */
function rebaseRefs(value: unknown): any {
  if (Array.isArray(value)) return value.map(rebaseRefs)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' && item.startsWith('#/components/') ? `fw-document${item}` : rebaseRefs(item)]),
  )
}

/** The new resource's key: `id` at the top, or in the one object it wraps (`{ task: { id } }`). */
function keyOf(json: unknown): unknown {
  if (typeof json !== 'object' || json === null) return undefined
  const record = json as Record<string, unknown>
  if (record.id !== undefined) return record.id
  for (const value of Object.values(record)) {
    if (typeof value === 'object' && value !== null && (value as Record<string, unknown>).id !== undefined) return (value as Record<string, unknown>).id
  }
  return undefined
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function describe(operation: Operation, request: Sent): string {
  const query = request.query ? `?${new URLSearchParams(request.query)}` : ''
  const body = request.body === undefined ? '' : ` ${JSON.stringify(request.body).slice(0, 200)}`
  const accept = request.headers.Accept ? ` [Accept: ${request.headers.Accept}]` : ''
  return `${operation.method} ${request.path}${query}${body}${accept}`
}
