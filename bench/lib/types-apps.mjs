// The sources of the type-check suite (`--suite types`): one API of N routes written twice, as an Fw app with route
// contracts and as a Hono app chained for its RPC client, on the same zod schemas, and a client of each making the same
// calls. Every file is plain TypeScript a person could have written; `npm run bench -- --suite types --keep` leaves
// them on disk to read.

/** What the resources are called; past the list, the same names again under /v2, /v3, … */
const NOUNS = [
  'post', 'user', 'order', 'product', 'invoice', 'comment', 'project', 'task', 'team', 'event',
  'ticket', 'author', 'review', 'payment', 'shipment', 'coupon', 'address', 'category', 'message', 'report',
]

/**
 * The fields a resource takes, each as zod writes it, a value it accepts and one of another type (the wrong body of
 * the check). A resource has four of them, starting at its own place in the list, so that neighbours differ.
 */
const FIELDS = [
  { name: 'title', schema: 'z.string().min(1)', good: "'A title'", wrong: '42' },
  { name: 'price', schema: 'z.number().nonnegative()', good: '9.5', wrong: "'9.5'" },
  { name: 'quantity', schema: 'z.number().int().min(0)', good: '3', wrong: "'3'" },
  { name: 'email', schema: 'z.email()', good: "'ada@example.com'", wrong: 'true' },
  { name: 'active', schema: 'z.boolean()', good: 'true', wrong: "'yes'" },
  { name: 'tags', schema: 'z.array(z.string())', good: "['new']", wrong: "'new'" },
  { name: 'status', schema: "z.enum(['draft', 'published', 'archived'])", good: "'draft'", wrong: "'gone'" },
  { name: 'dueOn', schema: 'z.iso.date()', good: "'2026-12-01'", wrong: '20261201' },
  { name: 'body', schema: 'z.string().max(2000)', good: "'Some text'", wrong: 'null' },
  { name: 'rating', schema: 'z.number().min(1).max(5)', good: '4', wrong: "'four'" },
]

/** The routes of one resource, in order: list, show, create, update, delete. */
export const ROUTE_KINDS = ['list', 'show', 'create', 'update', 'delete']

const pascal = (word) => word[0].toUpperCase() + word.slice(1)

/**
 * The resources of an API of `routeCount` routes (five a resource; the last one may have fewer): name, type name,
 * path, fields, and its routes' kinds.
 */
export function resources(routeCount) {
  const list = []
  for (let index = 0; index * ROUTE_KINDS.length < routeCount; index++) {
    const noun = NOUNS[index % NOUNS.length]
    const version = Math.floor(index / NOUNS.length) + 1
    const suffix = version > 1 ? String(version) : ''
    list.push({
      type: `${pascal(noun)}${suffix}`,
      example: `example${pascal(noun)}${suffix}`,
      path: `${version > 1 ? `/v${version}` : ''}/${noun}s`,
      fields: [0, 1, 2, 3].map((k) => FIELDS[(index + k) % FIELDS.length]),
      kinds: ROUTE_KINDS.slice(0, routeCount - index * ROUTE_KINDS.length),
    })
  }
  return list
}

/** schemas.ts, the same file in both apps: per resource, its row, its body and an example row; one page query for all. */
export function schemasSource(list) {
  const lines = [
    "import { z } from 'zod'",
    '',
    'export const PageQuery = z.object({ page: z.coerce.number().int().min(1).optional(), search: z.string().optional() })',
  ]
  for (const resource of list) {
    const { type, example, fields } = resource
    lines.push(
      '',
      `export const New${type} = z.object({ ${fields.map((f) => `${f.name}: ${f.schema}`).join(', ')} })`,
      `export const ${type} = New${type}.extend({ id: z.number().int() })`,
      `export const ${type}Page = z.object({ data: z.array(${type}), page: z.number().int() })`,
      `export type ${type} = z.infer<typeof ${type}>`,
      `export const ${example}: ${type} = { id: 1, ${fields.map((f) => `${f.name}: ${f.good}`).join(', ')} }`,
    )
  }
  return `${lines.join('\n')}\n`
}

/** The import of schemas.ts that the routes need: the `names` of each resource, a line per resource. */
const importSchemas = (list, from, names) => ['import {', '  PageQuery,', ...list.map((r) => `  ${names(r).join(', ')},`), `} from '${from}'`].join('\n')

/** routes/web.ts of the Fw app: each route with its contract (.query, .body, .returns); the handlers validate with the schemas. */
export function fwRoutesSource(list) {
  const lines = ["import { Response, Route } from 'fw-runtime'", importSchemas(list, '../schemas.js', (r) => [`New${r.type}`, r.type, `${r.type}Page`, r.example]), '']
  for (const { type, example, path, kinds } of list) {
    const route = {
      list: `Route.get('${path}', async (request) => ({ data: [${example}], page: (await request.validate(PageQuery)).page ?? 1 })).query(PageQuery).returns(200, ${type}Page)`,
      show: `Route.get('${path}/{id}', (_request, id) => ({ ...${example}, id: Number(id) })).returns(200, ${type})`,
      create: `Route.post('${path}', async (request) => Response.json({ ...(await request.validate(New${type})), id: 1 }, 201)).body(New${type}).returns(201, ${type})`,
      update: `Route.put('${path}/{id}', async (request, id) => ({ ...(await request.validate(New${type})), id: Number(id) })).body(New${type}).returns(200, ${type})`,
      delete: `Route.delete('${path}/{id}', () => Response.text('', 204)).returns(204)`,
    }
    lines.push(...kinds.map((kind) => route[kind]))
  }
  return `${lines.join('\n')}\n`
}

/** app.ts of the Hono app: one chain, so that `typeof app` carries every route's input and output (Hono's RPC guide). */
export function honoAppSource(list) {
  const lines = [
    "import { zValidator } from '@hono/zod-validator'",
    "import { Hono } from 'hono'",
    importSchemas(list, './schemas.js', (r) => [`New${r.type}`, r.example]),
    '',
    'const app = new Hono()',
  ]
  for (const { type, example, path, kinds } of list) {
    const route = {
      list: `  .get('${path}', zValidator('query', PageQuery), (c) => c.json({ data: [${example}], page: c.req.valid('query').page ?? 1 }, 200))`,
      show: `  .get('${path}/:id', (c) => c.json({ ...${example}, id: Number(c.req.param('id')) }, 200))`,
      create: `  .post('${path}', zValidator('json', New${type}), (c) => c.json({ ...c.req.valid('json'), id: 1 }, 201))`,
      update: `  .put('${path}/:id', zValidator('json', New${type}), (c) => c.json({ ...c.req.valid('json'), id: Number(c.req.param('id')) }, 200))`,
      delete: `  .delete('${path}/:id', (c) => c.body(null, 204))`,
    }
    lines.push(...kinds.map((kind) => route[kind]))
  }
  lines.push('', 'export type AppType = typeof app', 'export default app')
  return `${lines.join('\n')}\n`
}

/**
 * The routes a client calls: `count` of them spread over the resources, the kinds taken in turn (list, show, create,
 * update, delete, list, …), so that every kind is called whatever the number of routes.
 */
export function calledRoutes(list, count) {
  const total = Math.min(count, list.reduce((sum, resource) => sum + resource.kinds.length, 0))
  const calls = []
  for (let i = 0; i < total; i++) {
    const resource = list[Math.floor((i * list.length) / total)]
    const kind = resource.kinds[i % resource.kinds.length]
    calls.push({ resource, kind })
  }
  return calls
}

const body = (fields, wrong = false) => `{ ${fields.map((f, i) => `${f.name}: ${wrong && i === 0 ? f.wrong : f.good}`).join(', ')} }`

/** The TypeScript type a call's field is read into: the client must know it. */
const READ = { list: ['page', 'number'], show: ['id', 'number'], create: ['id', 'number'], update: ['id', 'number'] }

/**
 * A client.ts: its imports and client, then the calls, each reading a field of the answer into a variable of its type
 * (a delete, its status). `callOf(resource, kind, bad)` writes one call's expression, `readOf(call, field)` the read of
 * a field of its answer, `status` the property of its HTTP status. `wrong` makes the first create call's body carry a
 * value of the wrong type: tsc must then fail.
 */
function clientSource(header, calls, { wrong, callOf, readOf, status }) {
  const lines = [...header, '', 'export async function callEach(): Promise<unknown[]> {', '  const read: unknown[] = []']
  let wrongDone = !wrong
  calls.forEach(({ resource, kind }, i) => {
    const bad = !wrongDone && kind === 'create'
    if (bad) wrongDone = true
    const call = `call${i + 1}`
    lines.push(`  const ${call} = await ${callOf(resource, kind, bad)}`)
    if (kind === 'delete') lines.push(`  read.push(${call}.${status})`)
    else {
      const [field, type] = READ[kind]
      lines.push(`  const ${field}${i + 1}: ${type} | undefined = ${readOf(call, field)}`, `  read.push(${field}${i + 1})`)
    }
  })
  if (!wrongDone) throw new Error('the wrong client needs a create call')
  lines.push('  return read', '}')
  return `${lines.join('\n')}\n`
}

/** client.ts of the Fw app: `createClient<paths>` over `.fw/api.d.ts` (what `fw types` writes). */
export function fwClientSource(calls, { wrong = false } = {}) {
  const header = [
    "import { createClient } from 'fw-runtime/client'",
    "import type { paths } from './.fw/api.js'",
    '',
    "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000' })",
  ]
  const id = "{ params: { path: { id: '1' } } }"
  const callOf = ({ path, fields }, kind, bad) =>
    ({
      list: `api.GET('${path}', { params: { query: { page: 2 } } })`,
      show: `api.GET('${path}/{id}', ${id})`,
      create: `api.POST('${path}', { body: ${body(fields, bad)} })`,
      update: `api.PUT('${path}/{id}', { params: { path: { id: '1' } }, body: ${body(fields)} })`,
      delete: `api.DELETE('${path}/{id}', ${id})`,
    })[kind]
  return clientSource(header, calls, { wrong, callOf, readOf: (call, field) => `${call}.data?.${field}`, status: 'response.status' })
}

/** client.ts of the Hono app: `hc<AppType>`, the same calls and reads as the Fw client's. */
export function honoClientSource(calls, { wrong = false } = {}) {
  const header = ["import { hc } from 'hono/client'", "import type { AppType } from './app.js'", '', "const client = hc<AppType>('http://127.0.0.1:8000')"]
  const id = "{ param: { id: '1' } }"
  const callOf = ({ path, fields }, kind, bad) => {
    const chain = `client${path.split('/').slice(1).map((segment) => `.${segment}`).join('')}`
    return {
      list: `${chain}.$get({ query: { page: '2' } })`,
      show: `${chain}[':id'].$get(${id})`,
      create: `${chain}.$post({ json: ${body(fields, bad)} })`,
      update: `${chain}[':id'].$put({ param: { id: '1' }, json: ${body(fields)} })`,
      delete: `${chain}[':id'].$delete(${id})`,
    }[kind]
  }
  const readOf = (call, field) => `${call}.ok ? (await ${call}.json()).${field} : undefined`
  return clientSource(header, calls, { wrong, callOf, readOf, status: 'status' })
}
