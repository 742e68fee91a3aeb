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
        // Scaffold, install and run whole applications: slow, so one file at a time.
        test: {
          name: 'e2e',
          include: ['tests/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
