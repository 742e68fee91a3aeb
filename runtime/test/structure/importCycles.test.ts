import { fileURLToPath } from 'node:url'
import madge from 'madge'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../', import.meta.url))

// The core (container, router, HTTP) must not import what is built on it, and a generator must not import the
// command-line tool that runs it: a cycle hides such a dependency and makes module load order matter.
it('has no import cycle in the runtime, the generators or create-fw-app', async () => {
  const graph = await madge(['runtime/src', 'generators', 'src'], {
    baseDir: root,
    fileExtensions: ['ts'],
    tsConfig: `${root}tsconfig.json`,
  })
  expect(Object.keys(graph.obj()).length).toBeGreaterThan(70)
  expect(graph.circular()).toEqual([])
})
