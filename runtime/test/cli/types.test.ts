import { spawnSync } from 'node:child_process'
import { cpSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFwApp, startFw, until, type FwApp, type RunningFw } from '../support/fwApp.js'
import { freePort } from '../support/freePort.js'

const repository = fileURLToPath(new URL('../../../', import.meta.url))
const tsc = join(repository, 'node_modules/typescript/bin/tsc')
const tsx = join(repository, 'node_modules/tsx/dist/cli.mjs')

const ROUTES = [
  "import { Response, Route } from 'fw-runtime'",
  "import { z } from 'zod'",
  '',
  'const Task = z.object({ id: z.number().int(), title: z.string() })',
  '',
  "Route.post('/api/tasks', async (request) => Response.json({ id: 7, ...(await request.validate<{ title: string }>()) }, 201))",
  '  .body(z.object({ title: z.string() }))',
  '  .returns(201, Task)',
  "Route.get('/api/tasks/{id}', (request) => ({ id: Number(request.param('id')), title: 'Read' }))",
  '  .params({ id: z.string().regex(/^\\d+$/) })',
  '  .returns(200, Task)',
  '',
].join('\n')

/** Uses the client as the types allow, and prints what the server answered (run over HTTP below). */
const GOOD = [
  "import { createClient } from 'fw-runtime/client'",
  "import type { paths } from './.fw/api.js'",
  '',
  'const api = createClient<paths>({ baseUrl: process.env.BASE_URL! })',
  "const created = await api.POST('/api/tasks', { body: { title: 'Write the docs' } })",
  "const title: string | undefined = created.data?.title",
  "const shown = await api.GET('/api/tasks/{id}', { params: { path: { id: '3' } } })",
  "const id: number | undefined = shown.data?.id",
  'console.log(JSON.stringify({ status: created.response.status, title, id }))',
  '',
].join('\n')

const WRONG_BODY = [
  "import { createClient } from 'fw-runtime/client'",
  "import type { paths } from './.fw/api.js'",
  '',
  "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000' })",
  "await api.POST('/api/tasks', { body: { title: 1 } })",
  '',
].join('\n')

const UNKNOWN_PATH = [
  "import { createClient } from 'fw-runtime/client'",
  "import type { paths } from './.fw/api.js'",
  '',
  "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000' })",
  "await api.GET('/nope')",
  "await api.GET('/nope', {})",
  "await api.DELETE('/api/tasks', {})",
  '',
].join('\n')

/** The checkout's tsc over one file of the app, as a new application's tsconfig would check it. */
function typecheck(app: FwApp, file: string): { code: number | null; output: string } {
  const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2023,dom', '--types', 'node', '--skipLibCheck']
  const result = spawnSync(process.execPath, [tsc, ...flags, file], { cwd: app.dir, encoding: 'utf8' })
  return { code: result.status, output: result.stdout + result.stderr }
}

describe('fw types', () => {
  let app: FwApp

  beforeAll(() => {
    app = createFwApp()
    symlinkSync(join(repository, 'node_modules/zod'), join(app.dir, 'node_modules/zod'), 'dir')
    symlinkSync(join(repository, 'node_modules/@types'), join(app.dir, 'node_modules/@types'), 'dir')
    app.write('routes/web.ts', ROUTES)
    app.write('good.ts', GOOD)
    app.write('wrong-body.ts', WRONG_BODY)
    app.write('unknown-path.ts', UNKNOWN_PATH)
  })
  afterAll(() => app.remove())

  it('writes .fw/api.d.ts from the routes\' document, then leaves it alone while it is the same', async () => {
    const written = await app.fw(['types'])
    expect(written).toMatchObject({ code: 0, stderr: '', stdout: 'Wrote .fw/api.d.ts: 2 routes.\n' })
    const types = app.read('.fw/api.d.ts')
    expect(types).toMatch(/^\/\/ Written by fw types/)
    expect(types).toContain('"/api/tasks/{id}": {')
    expect(types).toMatch(/requestBody: \{\s*content: \{\s*"application\/json": \{\s*title: string;/)

    const before = statSync(join(app.dir, '.fw/api.d.ts')).mtimeMs
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await app.fw(['types'])).toMatchObject({ code: 0, stdout: 'Unchanged .fw/api.d.ts (2 routes).\n' })
    expect(statSync(join(app.dir, '.fw/api.d.ts')).mtimeMs).toBe(before)
  })

  it('types the client: the right calls compile; a wrong body type and an unknown path fail tsc, naming the error', () => {
    const good = typecheck(app, 'good.ts')
    expect(good.output).toBe('')
    expect(good.code).toBe(0)

    const wrongBody = typecheck(app, 'wrong-body.ts')
    expect(wrongBody.code).toBe(2)
    expect(wrongBody.output).toMatch(/wrong-body\.ts\(5,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/)

    const unknownPath = typecheck(app, 'unknown-path.ts')
    expect(unknownPath.code).toBe(2)
    // Without options, openapi-fetch's signature fails on the count of arguments; with them, it names the paths it takes.
    expect(unknownPath.output.trim().split('\n')).toEqual([
      'unknown-path.ts(5,11): error TS2554: Expected 2 arguments, but got 1.',
      `unknown-path.ts(6,15): error TS2345: Argument of type '"/nope"' is not assignable to parameter of type '"/api/tasks/{id}"'.`,
      `unknown-path.ts(7,18): error TS2345: Argument of type '"/api/tasks"' is not assignable to parameter of type 'never'.`,
    ])
  })

  it('--check exits 0 when up to date, and 1 with one line when stale or missing', async () => {
    expect(await app.fw(['types', '--check'])).toMatchObject({ code: 0, stdout: 'Unchanged .fw/api.d.ts (2 routes).\n' })

    app.write('routes/web.ts', `${ROUTES}Route.get('/api/later', () => ({}))\n`)
    const stale = await app.fw(['types', '--check'])
    expect(stale).toMatchObject({ code: 1, stdout: '' })
    expect(stale.stderr).toBe(".fw/api.d.ts is stale: the routes' document differs from it; run fw types to write it again\n")

    rmSync(join(app.dir, '.fw'), { recursive: true })
    const missing = await app.fw(['types', '--check'])
    expect(missing).toMatchObject({ code: 1, stderr: '.fw/api.d.ts is missing: run fw types to write it\n' })
    expect(app.files('.')).not.toContain('.fw')

    app.write('routes/web.ts', ROUTES)
    expect(await app.fw(['types'])).toMatchObject({ code: 0, stdout: 'Wrote .fw/api.d.ts: 2 routes.\n' })
  })

  describe('the client over HTTP', () => {
    let server: RunningFw
    let url: string

    beforeAll(async () => {
      const port = await freePort()
      server = startFw(app.dir, ['serve:node', `--port=${port}`])
      await until(() => /listening on/.test(server.output()), 'the app to listen')
      url = `http://127.0.0.1:${port}`
    }, 30_000)
    afterAll(async () => {
      server?.child.kill('SIGTERM')
      await server?.exited
    })

    it('sends the typed calls of the file that compiled to a server on 127.0.0.1, and reads the answers', () => {
      const run = spawnSync(process.execPath, [tsx, 'good.ts'], { cwd: app.dir, encoding: 'utf8', env: { ...process.env, BASE_URL: url } })
      expect(run.stderr).toBe('')
      expect(JSON.parse(run.stdout)).toEqual({ status: 201, title: 'Write the docs', id: 3 })
    })
  })
})

describe('fw serve and .fw/api.d.ts', () => {
  let app: FwApp
  let server: RunningFw

  beforeAll(async () => {
    app = createFwApp()
    symlinkSync(join(repository, 'node_modules/zod'), join(app.dir, 'node_modules/zod'), 'dir')
    app.write('routes/web.ts', ROUTES)
    server = startFw(app.dir, ['serve', `--port=${await freePort()}`])
  }, 30_000)
  afterAll(async () => {
    server?.child.kill('SIGTERM')
    await server?.exited
    app.remove()
  })

  it('writes the types once the routes are loaded, and again when a route is added: no command, no second restart', async () => {
    await until(() => server.output().includes('[fw] Wrote .fw/api.d.ts: 2 routes.'), 'the first .fw/api.d.ts', 30_000)
    expect(app.read('.fw/api.d.ts')).toContain('"/api/tasks/{id}": {')

    app.write('routes/web.ts', `${ROUTES}Route.get('/api/later', () => ({ later: true })).returns(200, z.object({ later: z.boolean() }))\n`)
    await until(() => server.output().includes('[fw] Wrote .fw/api.d.ts: 3 routes.'), 'the types of the new route', 30_000)
    expect(app.read('.fw/api.d.ts')).toMatch(/"\/api\/later": \{[\s\S]*later: boolean;/)
    // Written in a dot folder, which the watcher ignores: the one restart was for routes/web.ts.
    expect(server.output().match(/changed: restarting/g)).toEqual(['changed: restarting'])
  })

  it('leaves the file alone (its modification time too) when a restart changes no route', async () => {
    const before = statSync(join(app.dir, '.fw/api.d.ts')).mtimeMs
    const restarts = server.output().match(/listening on/g)!.length
    app.write('App/note.ts', 'export const note = 1\n')
    await until(() => server.output().match(/listening on/g)!.length > restarts, 'the restart for App/note.ts', 30_000)
    // The types are compared after the app listens: give that a moment, then look.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(statSync(join(app.dir, '.fw/api.d.ts')).mtimeMs).toBe(before)
    expect(server.output().match(/Wrote \.fw\/api\.d\.ts/g)).toHaveLength(2)
  })
})

describe('the api starter\'s .fw/api.d.ts', () => {
  it('is shipped as fw types writes it from the starter\'s routes, so that a new app\'s client compiles before any command', async () => {
    const app = createFwApp()
    try {
      symlinkSync(join(repository, 'node_modules/zod'), join(app.dir, 'node_modules/zod'), 'dir')
      for (const folder of ['App', 'routes', 'bootstrap', 'database', '.fw']) cpSync(join(repository, 'template/api', folder), join(app.dir, folder), { recursive: true })
      expect(await app.fw(['types', '--check'])).toMatchObject({ code: 0, stderr: '', stdout: 'Unchanged .fw/api.d.ts (18 routes).\n' })
    } finally {
      app.remove()
    }
  })
})

const BLOG_ROUTES = [
  "import { Response, Route } from 'fw-runtime'",
  "import { z } from 'zod'",
  '',
  'interface Category { name: string; children: Category[] }',
  'const Category: z.ZodType<Category> = z.object({ name: z.string(), get children() { return z.array(Category) } })',
  'const Tree: z.ZodType<Category> = z.lazy(() => z.object({ name: z.string(), children: z.array(Tree) }))',
  '',
  "Route.post('/blog/posts', async (request) => Response.json({ id: 1, ...(await request.validate<object>()) }, 201))",
  '  .body(z.object({ title: z.string(), published: z.boolean().default(false), tags: z.array(z.string()).default([]), meta: z.json().optional(), category: Category.optional() }))',
  '  .returns(201, z.object({ id: z.number().int(), title: z.string(), published: z.boolean() }))',
  "Route.post('/blog/trees', async (request) => ({ tree: await request.validate() })).body(Tree).returns(200, z.object({ tree: Tree }))",
  '',
].join('\n')

const BLOG_CLIENT = [
  "import { createClient } from 'fw-runtime/client'",
  "import type { paths } from './.fw/api.js'",
  '',
  "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000' })",
  "const created = await api.POST('/blog/posts', { body: { title: 'Hello', published: false } })",
  'const published: boolean | undefined = created.data?.published',
  "await api.POST('/blog/posts', { body: { title: 'A tree', meta: { any: [1, 'two', null, { deep: true }] }, category: { name: 'a', children: [{ name: 'b', children: [] }] } } })",
  "const tree = await api.POST('/blog/trees', { body: { name: 'root', children: [{ name: 'leaf', children: [] }] } })",
  'const leaf: string | undefined = tree.data?.tree.children[0]?.name',
  'console.log(published, leaf)',
  '',
].join('\n')

const BLOG_WRONG = [
  "import { createClient } from 'fw-runtime/client'",
  "import type { paths } from './.fw/api.js'",
  '',
  "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000' })",
  "await api.POST('/blog/trees', { body: { name: 'root', children: [{ name: 1, children: [] }] } })",
  '',
].join('\n')

describe('fw types of recursive bodies and defaults', () => {
  let app: FwApp

  beforeAll(() => {
    app = createFwApp()
    symlinkSync(join(repository, 'node_modules/zod'), join(app.dir, 'node_modules/zod'), 'dir')
    symlinkSync(join(repository, 'node_modules/@types'), join(app.dir, 'node_modules/@types'), 'dir')
    app.write('routes/web.ts', BLOG_ROUTES)
    app.write('blog.ts', BLOG_CLIENT)
    app.write('blog-wrong.ts', BLOG_WRONG)
  })
  afterAll(() => app.remove())

  it("types z.json(), a getter tree and a z.lazy tree through their components, and leaves a .default() field out of what a client must send", async () => {
    expect(await app.fw(['types'])).toMatchObject({ code: 0, stderr: '', stdout: 'Wrote .fw/api.d.ts: 2 routes.\n' })
    // openapi-typescript writes `export type $defs` for every document; a $defs property of a schema is the bug.
    expect(app.read('.fw/api.d.ts')).not.toMatch(/\$defs\??:/)
    const blog = typecheck(app, 'blog.ts')
    expect(blog.output).toBe('')
    expect(blog.code).toBe(0)
    const wrong = typecheck(app, 'blog-wrong.ts')
    expect(wrong.code).toBe(2)
    expect(wrong.output).toMatch(/blog-wrong\.ts\(5,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/)
  }, 120_000)
})
