import { defineConfig } from 'vitest/config'

export default defineConfig({
  // #app/* and #routes/* (package.json "imports") name the TypeScript sources here, never the build in dist/.
  ssr: { resolve: { conditions: ['module', 'node', 'development'] } },
  test: {
    include: ['tests/**/*.test.ts'],
    // The tests' own database, migrated once per run: never the development one (tests/database.ts).
    globalSetup: ['tests/database.ts'],
  },
})
