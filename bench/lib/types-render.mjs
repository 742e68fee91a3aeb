// Run by the type-check suite in an Fw app's folder: loads its bootstrap/app.ts (global middleware) and routes/web.ts
// as `fw types` does (through tsx), then times, in this one process, what `fw types` computes from them: the OpenAPI
// document (openApiDocument) and its TypeScript (renderApiTypes, openapi-typescript). Prints one line of JSON: the
// three times in milliseconds and the size of the text.
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { register } from 'tsx/esm/api'

register()
const app = process.cwd()
const { Container, Router, openApiDocument } = await import('fw-runtime')
// renderApiTypes is not a public export of fw-runtime: the one `fw types` runs, from the runtime's source.
const { renderApiTypes } = await import('../../runtime/src/openapi/apiTypes.ts')

const router = new Router(Container.getInstance())
let started = performance.now()
const { configure } = await import(pathToFileURL(join(app, 'bootstrap', 'app.ts')).href)
configure(Container.getInstance(), router)
await router.loadRoutesFromFile(join(app, 'routes', 'web.ts'))
const routesMs = performance.now() - started

started = performance.now()
const document = openApiDocument(router.getRoutes(), { title: 'fw-bench-types', version: '1.0.0' })
const documentMs = performance.now() - started

started = performance.now()
const text = await renderApiTypes(document, app)
const typesMs = performance.now() - started

console.log(JSON.stringify({ routes: router.getRoutes().length, routesMs, documentMs, typesMs, bytes: Buffer.byteLength(text) }))
