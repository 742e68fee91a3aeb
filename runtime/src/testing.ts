/**
 * For tests and tools, not for an application's code: an in-process client over the application, the seed's
 * capture → dispatch → send as one `node:http` listener without a server, and the tests' own database.
 *
 * @example
 * ```ts
 * import { testClient } from 'fw-runtime/testing'
 * const response = await testClient(router).get('/hello')
 * ```
 */
export { createRequestHandler, type RequestListener } from './server/createRequestHandler.js'
export { TestClient, testClient, type ActingVia, type TestResponse } from './testing/TestClient.js'
export { refreshDatabase, testDatabase, workerDatabase } from './testing/testDatabase.js'
export { expectDatabaseHas, expectDatabaseMissing, type RowMatch } from './testing/databaseAssertions.js'
export { expectQueries } from './testing/expectQueries.js'
