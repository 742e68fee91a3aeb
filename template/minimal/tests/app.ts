import { Container, loadEnv, Router } from 'fw-runtime'
import { testClient, type TestClient } from 'fw-runtime/testing'

loadEnv(new URL('../.env', import.meta.url))

/**
 * The application in this process, without a server: its routes on a router, requested with
 * `client.fetch(path, init)` (what `fetch` takes) or `client.get/post/put/delete`, answered with a standard
 * Response. Fast, and cookies are kept between calls; tests/server.test.ts checks the real server.
 *
 * @example
 * ```ts
 * const client = await createClient()
 * const response = await client.get('/hello')
 * ```
 */
export async function createClient(): Promise<TestClient> {
  const router = new Router(Container.getInstance())
  await router.loadRoutes(() => import('#routes/web.js'))
  return testClient(router)
}

/** The response body parsed as JSON, typed as the test expects it. */
export async function json<T>(response: { json(): Promise<unknown> }): Promise<T> {
  return (await response.json()) as T
}
