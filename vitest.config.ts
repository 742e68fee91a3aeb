import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'runtime',
          include: ['runtime/test/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // The database tests again with PostgreSQL's plain queries on postgres.js (DB_DRIVER=postgres), but for
        // those of pg's own pool, pipelining and faults; PostgresJsQueries.test.ts (in `runtime`) covers postgres.js's.
        test: {
          name: 'postgres.js',
          include: ['runtime/test/database/**/*.test.ts'],
          exclude: ['runtime/test/database/postgresFaults.test.ts', 'runtime/test/database/postgresDatabase.test.ts', 'runtime/test/database/PostgresJsQueries.test.ts', 'runtime/test/database/PipelinedQueries.test.ts', 'runtime/test/database/mysql*.test.ts', 'runtime/test/database/**/*.mysql.test.ts'],
          env: { DB_DRIVER: 'postgres' },
          testTimeout: 20_000,
        },
      },
      {
        // Scaffold, install and run whole applications: slow, so one file at a time.
        test: {
          name: 'e2e',
          include: ['tests/**/*.test.ts'],
          // An application's files (its own tests among them), copied into one by tests/blog.test.ts.
          exclude: ['tests/fixtures/**'],
          // One installed application per run, copied for each test file: see tests/support/installedApp.ts.
          globalSetup: ['tests/support/globalSetup.ts'],
          testTimeout: 600_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
