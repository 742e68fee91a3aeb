// The tests' own database for each `npm test`: a fresh SQLite file, migrated by `fw migrate`, in DATABASE_URL for
// every test and every server a test starts, removed at the end. database/database.sqlite is never opened.
export { testDatabase as default } from 'fw-runtime/testing'
