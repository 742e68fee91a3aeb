import { defineConfig } from 'vitest/config'

export default defineConfig({
  // #app/* and #routes/* (package.json "imports") name the TypeScript sources here, never the build in dist/.
  ssr: { resolve: { conditions: ['module', 'node', 'development'] } },
  test: {
    include: ['tests/**/*.test.ts'],
    // The tests' own database, migrated once per run (tests/database.ts), and a copy of it for each worker that runs
    // test files side by side (tests/setup.ts): never the development one.
    globalSetup: ['tests/database.ts'],
    setupFiles: ['tests/setup.ts'],
    // A job dispatched in a test runs at once, as no worker runs beside the tests; queue.fake() records jobs instead.
    // Mail sent in a test is kept in memory (mail.sent()), never written to the log or sent; mail.fake() records it.
    env: { QUEUE_DRIVER: 'sync', MAIL_MAILER: 'array' },
    // tests/server.ts starts the app as `npm run dev` does, TypeScript compiled on the way: room for a busy machine (CI).
    hookTimeout: 30_000,
    testTimeout: 30_000,
  },
})
