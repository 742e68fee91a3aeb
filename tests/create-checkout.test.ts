// An application created from this checkout: installed for real, its own tests, every sample route.
import { cpSync, lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installedApp, type InstalledApp } from './support/installedApp.js'
import { checkoutRoot, createFwApp, runOk, startServer, type RunningApp } from './support/process.js'

const runtimeVersion = (JSON.parse(readFileSync(join(checkoutRoot, 'runtime', 'package.json'), 'utf8')) as { version: string }).version

/** Looks every 100 ms until `condition` holds; fails naming `what` after 30 s. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (const start = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() - start > 30_000) throw new Error(`Waited 30 s for ${what}`)
  }
}

async function request(server: RunningApp, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await response.text()
  const json = (response.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, any>) : undefined
  return { status: response.status, headers: response.headers, text, json }
}

/** The starter's favicon from public/: browsers ask every page's server for /favicon.ico. */
async function expectFavicon(server: RunningApp): Promise<void> {
  const response = await fetch(`${server.url}/favicon.ico`)
  const icon = Buffer.from(await response.arrayBuffer())
  expect([response.status, response.headers.get('content-type')]).toEqual([200, 'image/x-icon'])
  // An ICO file's header: reserved 0, type 1 (icon), at least one image.
  expect([icon.readUInt16LE(0), icon.readUInt16LE(2), icon.readUInt16LE(4) > 0]).toEqual([0, 1, true])
}

/** Every row of the seed's sample-routes table, with its shape, status, headers and messages. */
async function expectEverySampleRoute(server: RunningApp, apiKey: string): Promise<void> {
  let r = await request(server, 'GET', '/')
  expect([r.status, r.json]).toEqual([200, { name: `Fw ${runtimeVersion}`, status: 'running', message: expect.any(String) }])
  r = await request(server, 'GET', '/hello')
  expect([r.status, r.json]).toEqual([200, { message: expect.any(String) }])
  r = await request(server, 'GET', '/greet/Ada')
  expect(r.status).toBe(200)
  expect(r.json!.message).toContain('Ada')

  r = await request(server, 'GET', '/users')
  expect([r.status, Array.isArray(r.json!.users)]).toEqual([200, true])
  r = await request(server, 'GET', '/users/4')
  expect([r.status, r.json]).toEqual([200, { user: { id: 4, name: expect.any(String) } }])
  r = await request(server, 'POST', '/users', { body: { name: 'Ada', role: 'admin' } })
  expect([r.status, r.json]).toEqual([201, { message: expect.any(String), user: { name: 'Ada', role: 'admin' } }])
  r = await request(server, 'PUT', '/users/4', { body: { name: 'Grace' } })
  expect([r.status, r.json]).toEqual([200, { updated: '4' }])
  r = await request(server, 'DELETE', '/users/4')
  expect([r.status, r.json]).toEqual([200, { deleted: '4' }])

  // The task API is on the database (create-fw-app migrated its table): what is created is read back, until deleted.
  const times = { created_at: expect.any(String), updated_at: expect.any(String) }
  r = await request(server, 'POST', '/api/tasks', { body: {} })
  expect([r.status, r.json]).toEqual([201, { message: expect.any(String), task: { id: expect.any(Number), title: 'Untitled', completed: false, ...times } }])
  const id = r.json!.task.id as number
  r = await request(server, 'GET', '/api/tasks')
  expect(r.status).toBe(200)
  expect(r.json!.count).toBe(r.json!.tasks.length)
  expect(r.json!.tasks.map((task: { id: number }) => task.id)).toContain(id)
  r = await request(server, 'GET', `/api/tasks/${id}`)
  expect([r.status, r.json!.task.id]).toEqual([200, id])
  r = await request(server, 'GET', '/api/tasks/12345')
  expect([r.status, r.json]).toEqual([404, { error: 'Task not found' }])
  r = await request(server, 'PUT', `/api/tasks/${id}`, { body: { completed: true } })
  expect([r.status, r.json]).toEqual([200, { message: expect.any(String), task: { id, title: 'Untitled', completed: true, ...times } }])
  r = await request(server, 'DELETE', `/api/tasks/${id}`)
  expect([r.status, r.json]).toEqual([200, { message: expect.any(String), id }])
  r = await request(server, 'GET', `/api/tasks/${id}`)
  expect([r.status, r.json]).toEqual([404, { error: 'Task not found' }])

  const ada = { name: 'Ada', email: 'ada@example.com' }
  r = await request(server, 'POST', '/api/users', { body: { email: 'ada@example.com' }, headers: { 'X-API-Key': 'wrong' } })
  expect([r.status, Object.keys(r.json!)]).toEqual([400, ['error']])
  r = await request(server, 'POST', '/api/users', { body: { ...ada, email: 'nope' }, headers: { 'X-API-Key': 'wrong' } })
  expect([r.status, Object.keys(r.json!)]).toEqual([422, ['error']])
  r = await request(server, 'POST', '/api/users', { body: ada, headers: { 'X-API-Key': 'wrong' } })
  expect([r.status, r.json]).toEqual([401, { error: 'Unauthorized' }])
  r = await request(server, 'POST', '/api/users', { body: ada, headers: { 'X-API-Key': apiKey } })
  expect([r.status, r.json]).toEqual([201, { success: true, user: { id: expect.any(Number), ...ada, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) } }])
  expect(r.headers.get('x-api-version')).toBeTruthy()
  expect(r.headers.get('x-request-id')).toBeTruthy()

  r = await request(server, 'GET', '/health')
  expect(r.status).toBe(200)
  expect(r.headers.get('cache-control')).toBe('no-cache')
  expect(Number.isInteger(r.json!.timestamp)).toBe(true)
  expect(typeof r.json!.status).toBe('string')
  r = await request(server, 'GET', '/download')
  expect(r.status).toBe(200)
  expect(r.headers.get('content-type')).toContain('text/plain')
  expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+"/)

  r = await request(server, 'GET', '/api/posts?page=2')
  expect(r.status).toBe(200)
  expect(r.json!.meta).toEqual({ current_page: 2, per_page: expect.any(Number), total: expect.any(Number), last_page: expect.any(Number) })
  expect(r.json!.meta.last_page).toBe(Math.ceil(r.json!.meta.total / r.json!.meta.per_page))
  expect(r.headers.get('x-total-count')).toBe(String(r.json!.meta.total))

  r = await request(server, 'GET', '/api/data')
  expect([r.status, r.headers.get('content-type')]).toEqual([200, expect.stringContaining('application/json')])
  r = await request(server, 'GET', '/api/data?format=text')
  expect([r.status, r.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/plain')])
  r = await request(server, 'GET', '/api/data?format=html')
  expect([r.status, r.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')])
  r = await request(server, 'GET', '/api/data?format=xml')
  expect([r.status, r.json]).toEqual([400, { error: 'Invalid format' }])
}

describe('an api application created from the checkout and installed with npm', () => {
  let app: InstalledApp
  const servers: RunningApp[] = []
  beforeAll(async () => {
    app = await installedApp({ template: 'api' })
  })
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
  })

  it('has fw-runtime packed inside it, so it does not depend on where the checkout lies', () => {
    const packageJson = JSON.parse(readFileSync(join(app.dir, 'package.json'), 'utf8'))
    expect(packageJson.dependencies['fw-runtime']).toMatch(/^file:vendor\/fw-runtime-.+\.tgz$/)
    expect(lstatSync(join(app.dir, 'node_modules', 'fw-runtime')).isSymbolicLink()).toBe(false)
    expect(readFileSync(join(app.dir, 'package-lock.json'), 'utf8')).not.toContain(checkoutRoot)
  })

  it('passes its own npm test and npm run typecheck', async () => {
    const test = await app.runOk('npm', ['test'])
    expect(stripVTControlCharacters(test.stdout)).toMatch(/Tests\s+\d+ passed/)
    await app.runOk('npm', ['run', 'typecheck'])
  })

  it('npm run build, then npm start serves the compiled JavaScript: every sample route, with no TypeScript source left', async () => {
    await app.runOk('npm', ['run', 'build'])
    // The #app/* and #routes/* imports must lead into dist/: the built app runs with its sources gone.
    const sources = ['App', 'routes', 'public/index.ts', 'bootstrap']
    for (const source of sources) renameSync(join(app.dir, source), join(app.dir, `${source}.away`))
    try {
      const server = await app.start(['npm', 'start'])
      servers.push(server)
      await expectEverySampleRoute(server, app.env().API_KEY!)
      await expectFavicon(server)
      await server.stop()
    } finally {
      for (const source of sources) renameSync(join(app.dir, `${source}.away`), join(app.dir, source))
    }
  })

  it('npm run dev (fw serve), npm test and npm run typecheck use the TypeScript sources, never the build beside them', async () => {
    // The build of the test above, made unusable: any of the three that loaded it would fail.
    writeFileSync(join(app.dir, 'dist/App/Controllers/HomeController.js'), "throw new Error('the build in dist/ was loaded')\n")
    writeFileSync(join(app.dir, 'dist/routes/web.js'), "throw new Error('the build in dist/ was loaded')\n")

    const server = await app.start(['npm', 'run', 'dev'])
    servers.push(server)
    const response = await fetch(`${server.url}/hello`)
    expect(response.status).toBe(200)
    await expectFavicon(server)

    // A route added under npm run dev reaches .fw/api.d.ts with no command (openapi-typescript from the app's own
    // install), and leaves it again when it goes.
    const routesFile = join(app.dir, 'routes/web.ts')
    const routes = readFileSync(routesFile, 'utf8')
    const typesHave = (path: string) => readFileSync(join(app.dir, '.fw/api.d.ts'), 'utf8').includes(`"${path}": {`)
    expect(typesHave('/api/tasks/{id}')).toBe(true)
    writeFileSync(routesFile, `${routes}\nRoute.get('/api/ping', () => ({ pong: true }))\n`)
    await waitFor(() => typesHave('/api/ping'), '/api/ping in .fw/api.d.ts')
    writeFileSync(routesFile, routes)
    await waitFor(() => !typesHave('/api/ping'), '/api/ping to leave .fw/api.d.ts')

    const test = await app.runOk('npm', ['test'])
    expect(stripVTControlCharacters(test.stdout)).toMatch(/Tests\s+\d+ passed/)
    await app.runOk('npm', ['run', 'typecheck'])
  })
})

describe('a minimal application created from the checkout', () => {
  it('has GET / only, passes its own tests and type-check, and serves when built', async () => {
    const api = await installedApp({ template: 'api' })
    const dir = join(api.dir, '..', 'tiny')
    await runOk('node', [createFwApp, 'tiny', '--template', 'minimal', '--no-install', '--no-git'], { cwd: join(api.dir, '..') })
    // Every dependency of the minimal starter is one of the api starter's, at the same version (the api starter
    // adds zod for its validation): the api app's installed node_modules serve both.
    const dependencies = (folder: string): Record<string, string> => {
      const { dependencies, devDependencies } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
      return { ...dependencies, ...devDependencies }
    }
    expect(dependencies(api.dir)).toMatchObject(dependencies(dir))
    cpSync(join(api.dir, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true })

    await runOk('npm', ['test'], { cwd: dir })
    await runOk('npm', ['run', 'typecheck'], { cwd: dir })
    await runOk('npm', ['run', 'build'], { cwd: dir })
    const server = await startServer('npm', ['start'], { cwd: dir })
    try {
      const root = await request(server, 'GET', '/')
      expect([root.status, root.json]).toEqual([200, { name: `Fw ${runtimeVersion}`, status: 'running', message: expect.any(String) }])
      expect((await request(server, 'GET', '/hello')).status).toBe(404)
      await expectFavicon(server)
    } finally {
      await server.stop()
    }
  })
})
