import { postsPage } from './blog.mjs'

/** Rows of `world`, as TechEmpower's database has them. */
export const WORLD_ROWS = 10_000

/** TechEmpower's `fortune` table, word for word (row 11 tests escaping, row 12 UTF-8). */
export const FORTUNES = [
  [1, 'fortune: No such file or directory'],
  [2, "A computer scientist is someone who fixes things that aren't broken."],
  [3, 'After enough decimal points, nobody gives a damn.'],
  [4, 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1'],
  [5, 'A computer program does what you tell it to do, not what you want it to do.'],
  [6, 'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen'],
  [7, 'Any program that runs right is obsolete.'],
  [8, 'A list is only as strong as its weakest link. — Donald Knuth'],
  [9, 'Feature: A bug with seniority.'],
  [10, 'Computers make very fast, very accurate mistakes.'],
  [11, '<script>alert("This should not be displayed in a browser alert box.");</script>'],
  [12, 'フレームワークのベンチマーク'],
]

/** The row TechEmpower's /fortunes adds at request time, before sorting. */
const ADDED = [0, 'Additional fortune added at request time.']

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c])

/**
 * The one right /fortunes page: every fortune and the added one, sorted by message, escaped. Every server
 * escapes the same five characters the same way, so the page is compared byte for byte.
 */
export const FORTUNES_HTML =
  '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>' +
  [...FORTUNES, ADDED]
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([id, message]) => `<tr><td>${id}</td><td>${escape(message)}</td></tr>`)
    .join('') +
  '</table></body></html>'

/**
 * TechEmpower's test types, each with what its verifier accepts. `expect` is how wrk.lua checks every
 * response under load: `exact` compares the body, `world` wants one `{"id":N,"randomNumber":N}` and
 * `worlds` an array of `count` of them, ids and numbers within 1..10,000, numbers as JSON numbers; the
 * Content-Type must start with `contentType`. `maxQueries`: the most statements one answer may cost on
 * PostgreSQL (counted by pg_stat_statements when the server is verified).
 */
export const DB_CASES = {
  json: { label: 'JSON', method: 'GET', path: '/json', status: 200, contentType: 'application/json', expect: { kind: 'exact', body: '{"message":"Hello, World!"}' } },
  plaintext: { label: 'plaintext', method: 'GET', path: '/plaintext', status: 200, contentType: 'text/plain', expect: { kind: 'exact', body: 'Hello, World!' } },
  db: { label: 'single query', method: 'GET', path: '/db', status: 200, contentType: 'application/json', expect: { kind: 'world' } },
  queries1: { label: '1 query', method: 'GET', path: '/queries?queries=1', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 1 } },
  queries20: { label: '20 queries', method: 'GET', path: '/queries?queries=20', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 20 } },
  updates20: { label: '20 updates', method: 'GET', path: '/updates?queries=20', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 20 } },
  fortunes: { label: 'fortunes', method: 'GET', path: '/fortunes', status: 200, contentType: 'text/html; charset=utf-8', expect: { kind: 'exact', body: FORTUNES_HTML } },
  // Not TechEmpower's: a page of a blog (blog.mjs), 50 posts with their author and comments, in at most 3 queries.
  posts: { label: 'relations', method: 'GET', path: '/posts', status: 200, contentType: 'application/json', expect: { kind: 'exact', body: postsPage() }, maxQueries: 3 },
  // Fw's alone, run only when named (`optional`): one row by route model binding, or by findOrFail by hand (fw-bound, fw-by-hand).
  world: { label: 'a bound row', method: 'GET', path: '/world/4242', status: 200, contentType: 'application/json', expect: { kind: 'world' }, maxQueries: 1, optional: true },
}

/** The test types that query the database (the ones the ratio targets are about). */
export const DATABASE_TESTS = ['db', 'queries1', 'queries20', 'updates20', 'fortunes', 'posts']

/**
 * The answers the harness also checks by hand before and after each load, as TechEmpower's verifier asks
 * for them: a `queries` value that is missing, not a number, below 1 or above 500 is taken as 1 or 500.
 * `test` says which test types a run must include for the check to apply.
 */
export const EDGE_CASES = [
  { test: 'queries', label: 'queries without a value', method: 'GET', path: '/queries', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 1 } },
  { test: 'queries', label: 'queries=foo', method: 'GET', path: '/queries?queries=foo', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 1 } },
  { test: 'queries', label: 'queries=0', method: 'GET', path: '/queries?queries=0', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 1 } },
  { test: 'queries', label: 'queries=501', method: 'GET', path: '/queries?queries=501', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 500 } },
  { test: 'updates', label: 'updates=0', method: 'GET', path: '/updates?queries=0', status: 200, contentType: 'application/json', expect: { kind: 'worlds', count: 1 } },
]

const WORLD = /\{"id":(\d+),"randomNumber":(\d+)\}/g
const inRange = (text) => {
  const n = Number(text)
  return Number.isInteger(n) && n >= 1 && n <= WORLD_ROWS
}

/** Why a body is wrong for an `expect` (the same rules as wrk.lua), or null when it is right. */
export function wrongBody(body, expect) {
  if (expect.kind === 'exact') return body === expect.body ? null : `body ${body.slice(0, 200)}, expected ${expect.body.slice(0, 200)}`
  let count = 0
  let bad = null
  const rest = body.replace(WORLD, (match, id, number) => {
    count++
    if (!inRange(id) || !inRange(number)) bad ??= match
    return ''
  })
  if (bad) return `${bad}: id and randomNumber must lie within 1..${WORLD_ROWS}`
  if (expect.kind === 'world') return count === 1 && rest === '' ? null : `body ${body.slice(0, 200)}, expected one {"id":N,"randomNumber":N}`
  const shape = `[${','.repeat(Math.max(0, expect.count - 1))}]`
  return count === expect.count && rest === shape ? null : `body ${body.slice(0, 200)}, expected an array of ${expect.count} {"id":N,"randomNumber":N}`
}
