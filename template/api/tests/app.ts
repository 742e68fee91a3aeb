import { Container, loadEnv, Router } from 'fw-runtime'
import { testClient, type TestClient } from 'fw-runtime/testing'
import { configure } from '../bootstrap/app.js'

loadEnv(new URL('../.env', import.meta.url))
/** The key the tests send in X-API-Key (API_KEY from .env, or a fixed one). */
export const apiKey = (process.env.API_KEY ||= 'test-api-key')

/** Set up once: a process loads its routes files once, into one router (Route.* registers on it). */
let application: Promise<Router> | undefined

/**
 * The application in this process, without a server: its routes on a router, requested with
 * `client.fetch(path, init)` (what `fetch` takes) or `client.get/post/put/delete`, answered with a standard
 * Response. Fast, and cookies are kept between calls; tests/server.test.ts checks the real server. Each client keeps
 * cookies of its own (two clients are two browsers), over the one application of the test file.
 *
 * @example
 * ```ts
 * const client = await createClient()
 * const response = await client.get('/hello')
 * ```
 */
export async function createClient(): Promise<TestClient> {
  application ??= loadApplication()
  return testClient(await application)
}

/** The router as public/index.ts sets it up: bootstrap/app.ts, then the routes. */
async function loadApplication(): Promise<Router> {
  const container = Container.getInstance()
  const router = new Router(container)
  configure(container, router)
  await router.loadRoutes(() => import('#routes/web.js'))
  return router
}

/** The response body parsed as JSON, typed as the test expects it. */
export async function json<T>(response: { json(): Promise<unknown> }): Promise<T> {
  return (await response.json()) as T
}
