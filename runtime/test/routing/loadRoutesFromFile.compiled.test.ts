import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Router } from '../../src/routing/Router.js'
import { listenOn, readJson, servers } from '../support/servers.js'

// Its own file: the Route facade is bound to the one router that loads routes in a process.
describe('loadRoutesFromFile with a compiled routes file', () => {
  it('a compiled .js file is found when the .ts path is given, and answers on both servers', async () => {
    const router = new Router(new Container())
    const dir = mkdtempSync(join(tmpdir(), 'fw-routes-'))
    const routeModule = new URL('../../src/routing/Route.ts', import.meta.url).pathname
    writeFileSync(join(dir, 'web.js'), `import { Route } from ${JSON.stringify(routeModule)}\nRoute.get('/compiled', () => ({ compiled: true }))\n`)
    try {
      await router.loadRoutesFromFile(join(dir, 'web.ts'))
    } finally {
      rmSync(dir, { recursive: true })
    }
    for (const { start } of servers) {
      const server = await listenOn(start, router)
      try {
        expect(await readJson(await fetch(`${server.url}/compiled`))).toEqual({ compiled: true })
      } finally {
        await server.close()
      }
    }
  })
})
