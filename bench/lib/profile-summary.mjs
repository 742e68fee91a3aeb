import { existsSync, readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { fileURLToPath } from 'node:url'

/** Source maps of the bundled files (runtime/dist bundles kysely and awilix), by URL; null where there is none. */
const maps = new Map()

/**
 * The frame with its file as it was before bundling: a function of runtime/dist is reported under the
 * source it came from (runtime/src/…, or the copy of kysely's file in runtime/dist/bundled/kysely/…), so that
 * kysely's time is not counted as Fw's.
 */
function original(frame) {
  if (!frame.url.includes('/runtime/dist/')) return frame
  if (!maps.has(frame.url)) {
    const file = `${fileURLToPath(frame.url)}.map`
    maps.set(frame.url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null)
  }
  const entry = maps.get(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber)
  if (!entry?.originalSource) return frame
  const source = entry.originalSource.replace(/^(\.\.\/)+/, '/').replace(/^.*\/node_modules\//, '/node_modules/')
  const url = source.startsWith('/node_modules/') ? source : `/runtime/${source.replace(/^\/?/, '')}`
  return { ...frame, url, lineNumber: entry.originalLine, columnNumber: entry.originalColumn }
}

/** Where a function's time goes, by the file it is in (first match wins). */
const CATEGORIES = [
  ['GC', (frame) => frame.functionName === '(garbage collector)'],
  ['idle', (frame) => frame.functionName === '(idle)'],
  ['program (native, not JS)', (frame) => frame.functionName === '(program)'],
  ['kysely', (frame) => frame.url.includes('/kysely/')],
  ['pg (pg, pg-pool, pg-protocol, pg-types)', (frame) => /\/(pg|pg-pool|pg-protocol|pg-types|pgpass|postgres-[a-z]+)\//.test(frame.url)],
  ['fw-runtime', (frame) => frame.url.includes('/runtime/')],
  ['awilix', (frame) => frame.url.includes('/awilix/')],
  ['polka', (frame) => frame.url.includes('/polka/') || frame.url.includes('/polka-next/') || frame.url.includes('/@polka/')],
  ['fastify (and its dependencies)', (frame) => /\/(fastify|find-my-way|light-my-request|avvio|fast-json-stringify|@fastify|abstract-logging|pino|fast-querystring|toad-cache|rfdc|secure-json-parse)\//.test(frame.url)],
  ['the bench app', (frame) => frame.url.includes('/bench/servers/')],
  ['node:http, net, streams', (frame) => /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|timers|js_stream))/.test(frame.url)],
  ['node: other', (frame) => frame.url.startsWith('node:')],
  ['native (no file)', (frame) => frame.url === ''],
  ['other', () => true],
]

/**
 * Self time of a V8 CPU profile by category and by function, in µs per request.
 *
 * @example
 * summarizeCpuProfile('fw-db.cpuprofile', 10_000) // { categories: [['GC', 21.3], …], functions: [...] }
 */
export function summarizeCpuProfile(file, requests) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const selfUs = new Map()
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0))
  }
  const categories = new Map()
  const functions = new Map()
  for (const [id, us] of selfUs) {
    const frame = original(byId.get(id).callFrame)
    const [category] = CATEGORIES.find(([, test]) => test(frame))
    categories.set(category, (categories.get(category) ?? 0) + us)
    const where = frame.url ? `${frame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(runtime|bench\/servers)\//, '$1/')}:${frame.lineNumber + 1}` : ''
    const key = `${frame.functionName || '(anonymous)'} ${where}`
    functions.set(key, (functions.get(key) ?? 0) + us)
  }
  const perRequest = (map) => [...map].map(([key, us]) => [key, us / requests]).sort((a, b) => b[1] - a[1])
  return { categories: perRequest(categories), functions: perRequest(functions) }
}

/** Bytes allocated per request by the function that allocated them (self), from a sampling heap profile. */
export function summarizeHeapProfile(file, requests) {
  const { head } = JSON.parse(readFileSync(file, 'utf8'))
  const selfBytes = new Map()
  const nodes = new Map()
  const walk = (node) => {
    nodes.set(node.id, node)
    selfBytes.set(node.id, node.selfSize)
    for (const child of node.children) walk(child)
  }
  walk(head)
  const functions = new Map()
  let total = 0
  for (const [id, bytes] of selfBytes) {
    const frame = original(nodes.get(id).callFrame)
    const where = frame.url ? `${frame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(runtime|bench\/servers)\//, '$1/')}:${frame.lineNumber + 1}` : ''
    const key = `${frame.functionName || '(anonymous)'} ${where}`
    functions.set(key, (functions.get(key) ?? 0) + bytes)
    total += bytes
  }
  return { totalPerRequest: total / requests, functions: [...functions].map(([key, bytes]) => [key, bytes / requests]).sort((a, b) => b[1] - a[1]) }
}
