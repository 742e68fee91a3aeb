import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const bench = fileURLToPath(new URL('..', import.meta.url))

function version(name, from = `${bench}node_modules/${name}`) {
  try {
    return JSON.parse(readFileSync(`${from}/package.json`, 'utf8')).version
  } catch {
    return '?'
  }
}

/**
 * The servers measured, in table order. `baseline` is the one every ratio is taken against.
 * `optional` servers run only when named with `--servers`; fw-validate and fw-contract, Fw validating the echo's
 * body the two ways, are also paired with each other whenever Fw answers the echo case, and fw-returns, whose
 * `GET /users/{id}` declares its response, with Fw whenever Fw answers the user case (paired.mjs).
 */
export function serverList() {
  const runtime = version('fw-runtime', fileURLToPath(new URL('../../runtime', import.meta.url)))
  return [
    { id: 'fw', label: `Fw (fw-runtime ${runtime}, polka)`, file: 'servers/fw/public/index.js' },
    {
      id: 'fw-node',
      label: `Fw (fw-runtime ${runtime}, node:http)`,
      file: 'servers/fw/public/index.js',
      env: { FW_SERVER: 'node' },
      optional: true,
    },
    {
      id: 'fw-validate',
      label: `Fw (fw-runtime ${runtime}), POST /users validating with request.validate(schema)`,
      file: 'servers/fw/public/index.js',
      env: { BENCH_VALIDATE: 'schema' },
      optional: true,
    },
    {
      id: 'fw-contract',
      label: `Fw (fw-runtime ${runtime}), POST /users declaring .body(schema), validating with request.validate()`,
      file: 'servers/fw/public/index.js',
      env: { BENCH_VALIDATE: 'declared' },
      optional: true,
    },
    {
      id: 'fw-returns',
      label: `Fw (fw-runtime ${runtime}), GET /users/{id} declaring .returns(200, schema)`,
      file: 'servers/fw/public/index.js',
      env: { BENCH_RETURNS: '1' },
      optional: true,
    },
    {
      // Paired with Fw (--paired-with fw-throttle): what counting every request in the database costs.
      id: 'fw-throttle',
      label: `Fw (fw-runtime ${runtime}), GET routes under throttle:bench (SQLite counter)`,
      file: 'servers/fw/public/index.js',
      env: { BENCH_THROTTLE: '1', DATABASE_URL: `sqlite:${join(tmpdir(), `fw-bench-throttle-${process.pid}.sqlite`)}` },
      optional: true,
    },
    { id: 'polka-next', label: `polka ${version('polka-next')} (bare)`, file: 'servers/polka-next.mjs', baseline: true },
    { id: 'node-http', label: `node:http ${process.versions.node} (bare)`, file: 'servers/node-http.mjs' },
    { id: 'polka-0.5', label: `polka ${version('polka')} (bare)`, file: 'servers/polka-0.5.mjs' },
    { id: 'fastify', label: `fastify ${version('fastify')}`, file: 'servers/fastify.mjs' },
    { id: 'hono', label: `hono ${version('hono')} (@hono/node-server ${version('@hono/node-server')})`, file: 'servers/hono.mjs' },
    { id: 'express', label: `express ${version('express')}`, file: 'servers/express.mjs' },
  ]
}

/**
 * The servers of the db suite (`--suite db`), in table order, each answering TechEmpower's test types
 * (servers/db/README.md). `driver` is what the ratios group by: Fw is compared with the fastest peer on
 * the same database. `env` gets DATABASE_URL once the suite has started PostgreSQL.
 */
export function dbServerList() {
  const runtime = version('fw-runtime', fileURLToPath(new URL('../../runtime', import.meta.url)))
  const db = { readyPath: '/json' }
  return [
    { id: 'fw', label: `Fw (fw-runtime ${runtime}, kysely, pg)`, file: 'servers/fw-db/public/index.js', driver: 'pg', ...db },
    {
      id: 'fw-postgresjs',
      label: `Fw (fw-runtime ${runtime}, kysely, DB_DRIVER=postgres)`,
      file: 'servers/fw-db/public/index.js',
      driver: 'postgres.js',
      env: { DB_DRIVER: 'postgres' },
      optional: true,
      ...db,
    },
    {
      id: 'fw-bound',
      label: `Fw (fw-runtime ${runtime}, kysely, pg), GET /world/{world} bound with .bind('world', World)`,
      file: 'servers/fw-db/public/index.js',
      driver: 'pg',
      env: { BENCH_BINDING: 'bound' },
      optional: true,
      ...db,
    },
    {
      id: 'fw-by-hand',
      label: `Fw (fw-runtime ${runtime}, kysely, pg), GET /world/{world} with World.findOrFail(id) in the handler`,
      file: 'servers/fw-db/public/index.js',
      driver: 'pg',
      env: { BENCH_BINDING: 'hand' },
      optional: true,
      ...db,
    },
    { id: 'fw-sqlite', label: `Fw (fw-runtime ${runtime}, kysely, SQLite)`, file: 'servers/fw-db/public/index.js', driver: 'sqlite', ...db },
    { id: 'node-http-pg', label: `node:http ${process.versions.node} + pg (bare)`, file: 'servers/db/node-http-pg.mjs', driver: 'pg', ...db },
    { id: 'fastify-pg', label: `fastify ${version('fastify')} + pg`, file: 'servers/db/fastify-pg.mjs', driver: 'pg', ...db },
    { id: 'fastify-kysely', label: `fastify ${version('fastify')} + kysely ${version('kysely')}`, file: 'servers/db/fastify-kysely.mjs', driver: 'pg', ...db },
    {
      id: 'fastify-postgresjs',
      label: `fastify ${version('fastify')} + postgres.js ${version('postgres')}`,
      file: 'servers/db/fastify-postgresjs.mjs',
      driver: 'postgres.js',
      optional: true,
      ...db,
    },
    { id: 'hono-pg', label: `hono ${version('hono')} + pg`, file: 'servers/db/hono-pg.mjs', driver: 'pg', ...db },
    { id: 'express-pg', label: `express ${version('express')} + pg`, file: 'servers/db/express-pg.mjs', driver: 'pg', ...db },
  ]
}

/**
 * The servers of the cache suite (`--suite cache`), in table order, each answering `GET /cached` with
 * `{"greeting":"Hello, World!"}`: Fw returning it as a constant (the baseline of the ratios), Fw reading it through
 * `cache().remember` on each store, and fastify with each engine used directly. `store` is what the suite starts for
 * it: REDIS_URL for `redis`, DATABASE_URL (a SQLite file) for `database`.
 */
export function cacheServerList() {
  const runtime = version('fw-runtime', fileURLToPath(new URL('../../runtime', import.meta.url)))
  const fw = (id, what, env, store) => ({ id, label: `Fw (fw-runtime ${runtime}), ${what}`, file: 'servers/fw/public/index.js', env, store, readyPath: '/cached' })
  const remember = (store) => ({ BENCH_CACHE: 'remember', CACHE_STORE: store })
  return [
    fw('fw-constant', 'a constant, no cache', { BENCH_CACHE: 'constant' }, null),
    fw('fw-memory', 'cache().remember, memory store', remember('memory'), 'memory'),
    fw('fw-database', 'cache().remember, database store (SQLite)', remember('database'), 'database'),
    fw('fw-redis', 'cache().remember, Redis store', remember('redis'), 'redis'),
    { id: 'fastify-ioredis', label: `fastify ${version('fastify')} + ioredis ${version('ioredis')} (get)`, file: 'servers/cache/fastify-ioredis.mjs', store: 'redis', readyPath: '/cached' },
    {
      id: 'fastify-bentocache',
      label: `fastify ${version('fastify')} + bentocache ${version('bentocache')} (memory, getOrSet)`,
      file: 'servers/cache/fastify-bentocache.mjs',
      store: 'memory',
      readyPath: '/cached',
    },
  ]
}
