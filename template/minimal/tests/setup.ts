import { workerDatabase } from 'fw-runtime/testing'

// Each vitest worker gets its own copy of the tests' database (tests/database.ts), so that test files running side by
// side never see each other's rows. In a test file, `beforeEach(refreshDatabase)` empties its tables before each test.
await workerDatabase()
