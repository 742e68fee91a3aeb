// The tests' own database, migrated once for each `npm test`: a fresh SQLite file, or <name>_test beside a PostgreSQL
// DATABASE_URL (TEST_DATABASE_URL names another). database/database.sqlite and the development database are never
// opened. vitest.config.ts runs this file as its globalSetup.
export { testDatabase as default } from 'fw-runtime/testing'
