import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Constructor } from '../../src/container/Container.js'
import { Container } from '../../src/container/Container.js'
import { controllerPaths } from '../../src/openapi/controllerPaths.js'
import { openApiDocument } from '../../src/openapi/openApiDocument.js'
import { Router } from '../../src/routing/Router.js'

const app = mkdtempSync(join(tmpdir(), 'fw-controllers-'))
const CONTROLLER = (name: string) => `export class ${name} {\n  store() {\n    return {}\n  }\n  index() {\n    return []\n  }\n}\n`

function write(file: string, text: string): string {
  const path = join(app, file)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
  return path
}

/** The controllers of the test's files: `store` and `index`. */
type Controller = Constructor<{ store(): object; index(): unknown[] }>

async function controller(file: string, name: string): Promise<Controller> {
  return ((await import(pathToFileURL(join(app, file)).href)) as Record<string, Controller>)[name]!
}

describe('controllerPaths', () => {
  let ApiUserController: Controller
  let UserController: Controller
  let ReportController: Controller
  let Inline: Controller

  beforeAll(async () => {
    write('App/Controllers/UserController.ts', CONTROLLER('UserController'))
    write('App/Controllers/Api/UserController.ts', CONTROLLER('UserController'))
    // A controller only in the build, as under fw start; and a stale source of the same name that exports another class.
    write('dist/App/Controllers/Admin/ReportController.js', CONTROLLER('ReportController'))
    write('App/Controllers/Admin/ReportController.ts', CONTROLLER('ReportController'))
    write('App/Controllers/UserController.test.ts', 'throw new Error("a test file is never imported")\n')
    ApiUserController = await controller('App/Controllers/Api/UserController.ts', 'UserController')
    UserController = await controller('App/Controllers/UserController.ts', 'UserController')
    ReportController = await controller('dist/App/Controllers/Admin/ReportController.js', 'ReportController')
    Inline = class UserController {
      store() {
        return {}
      }
      index() {
        return []
      }
    }
  })
  afterAll(() => rmSync(app, { recursive: true, force: true }))

  function routes(order: 'api first' | 'web first') {
    const router = new Router(new Container())
    const api = () => router.post('/api/users', [ApiUserController, 'store'])
    const web = () => router.post('/users', [UserController, 'store'])
    if (order === 'api first') (api(), web())
    else (web(), api())
    router.get('/reports', [ReportController, 'index'])
    router.get('/inline', [Inline, 'index'])
    return router.commit().getRoutes()
  }

  it("finds each class in the file that exports it, in the sources or the build; a class in no file is left out", async () => {
    const paths = await controllerPaths(routes('api first'), app)
    expect(paths.get(ApiUserController)).toBe('Api/UserController')
    expect(paths.get(UserController)).toBe('UserController')
    expect(paths.get(ReportController)).toBe('Admin/ReportController')
    expect(paths.has(Inline)).toBe(false)
  })

  it('gives operationIds and tags from the files, the same whatever order the routes come in', async () => {
    const documents = await Promise.all(
      (['api first', 'web first'] as const).map(async (order) => {
        const list = routes(order)
        return openApiDocument(list, { title: 'app', version: '1' }, { controllers: await controllerPaths(list, app) }) as any
      }),
    )
    for (const document of documents) {
      expect(document.paths['/api/users'].post).toMatchObject({ operationId: 'Api.UserController.store', tags: ['Api/User'] })
      expect(document.paths['/users'].post).toMatchObject({ operationId: 'UserController.store', tags: ['User'] })
      expect(document.paths['/reports'].get).toMatchObject({ operationId: 'Admin.ReportController.index', tags: ['Report'] })
    }
    expect(documents[0].paths['/users'].post.operationId).toBe(documents[1].paths['/users'].post.operationId)
  })
})
