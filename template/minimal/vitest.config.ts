import { defineConfig } from 'vitest/config'

export default defineConfig({
  // #app/* and #routes/* (package.json "imports") name the TypeScript sources here, never the build in dist/.
  ssr: { resolve: { conditions: ['module', 'node', 'development'] } },
  test: {
    include: ['tests/**/*.test.ts'],
  },
})
