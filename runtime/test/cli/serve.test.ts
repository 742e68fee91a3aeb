import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanEnv, createFwApp, FW, type FwApp } from '../support/fwApp.js'

let app: FwApp
let running: ChildProcess | undefined
beforeEach(() => {
  app = createFwApp()
})
afterEach(async () => {
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((resolve) => running!.once('exit', resolve))
    running.kill('SIGTERM')
    await exited
  }
  running = undefined
  app.remove()
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Starts `fw <args>` and resolves with the URL it prints once it listens (or once its output matches `ready`). */
function startFw(args: string[], env: NodeJS.ProcessEnv = {}, ready?: RegExp): Promise<{ url: string; output: () => string }> {
  return startNode([FW, ...args], env, ready)
}

/** Starts `node <args>` in the app and resolves with the URL it prints once it listens (or once its output matches `ready`). */
function startNode(args: string[], env: NodeJS.ProcessEnv = {}, ready = /listening on (http:\/\/\S+)/): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, args, { cwd: app.dir, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  running = child
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = ready.exec(output)
      if (match) resolve({ url: match[1]!, output: () => output })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited with ${code}: ${output}`)))
  })
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    if (await check().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`Timed out waiting for ${what}`)
}

describe('fw serve', () => {
  it('serves the app on polka at --port and restarts it when a file changes', async () => {
    const port = await freePort()
    const { url, output } = await startFw(['serve', `--port=${port}`])

    expect(url).toBe(`http://127.0.0.1:${port}`)
    expect(output()).toContain(`Fw listening on http://127.0.0.1:${port}`)
    const home = await fetch(`${url}/`)
    expect(home.status).toBe(200)
    expect(await home.json()).toEqual({ status: 'running' })
    expect((await fetch(`${url}/added`)).status).toBe(404)

    app.write(
      'routes/web.ts',
      "import { Route } from 'fw-runtime'\n\nRoute.get('/', () => ({ status: 'running' }))\nRoute.get('/added', () => ({ added: true }))\n",
    )

    await waitFor(async () => (await fetch(`${url}/added`)).status === 200, 'the restarted server to serve /added')
    expect(output()).toContain('routes/web.ts changed: restarting')
  })

  it('honours PORT from the environment', async () => {
    const port = await freePort()
    const { url } = await startFw(['serve'], { PORT: String(port) })
    expect(url).toBe(`http://127.0.0.1:${port}`)
    expect((await fetch(url)).status).toBe(200)
  })

  it('says in one line that the port is in use, and exits 1', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as { port: number }
    try {
      const result = await app.fw(['serve', `--port=${port}`])
      expect(result.code).toBe(1)
      expect(result.stderr).toBe(`Port ${port} is already in use on 127.0.0.1; stop the other server or choose another port with --port\n`)
      expect(result.stdout).toBe('')
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })

  it('refuses a port that is not a number', async () => {
    const result = await app.fw(['serve', '--port=eighty'])
    expect(result).toMatchObject({ code: 1, stderr: 'Invalid port "eighty": use a whole number from 0 to 65535\n' })
  })

  it('says where to run it when there is no public/index.ts', async () => {
    app.write('public/index.ts', '')
    const { rmSync } = await import('node:fs')
    rmSync(`${app.dir}/public/index.ts`)
    const result = await app.fw(['serve'])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`No public/index.ts in ${app.dir}: run fw from your application's folder\n`)
  })
})

describe('fw serve: an app that cannot start', () => {
  const controller = (returned: string) => `export class HomeController {\n  index() {\n    return ${returned}\n  }\n}\n`
  // esbuild's message for the second comma, in column 25 of line 3 (counted from 1, as V8's stack frames are).
  const BROKEN = controller('{ version: 1,, }')
  const errorPageUp = /(http:\/\/\S+) answers every request with the error/
  const page = (url: string) => fetch(url, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
  const json = (url: string) => fetch(url, { headers: { accept: 'application/json' } })

  beforeEach(() => {
    app.write(
      'routes/web.ts',
      "import { Route } from 'fw-runtime'\nimport { HomeController } from '#app/Controllers/HomeController.js'\n\nRoute.get('/', [HomeController, 'index'])\n",
    )
  })

  it('answers every request with the error page (file, line, column, message) until the file is fixed, then the app answers', async () => {
    app.write('App/Controllers/HomeController.ts', BROKEN)
    const port = await freePort()
    const { url, output } = await startFw(['serve', `--port=${port}`], {}, errorPageUp)
    expect(url).toBe(`http://127.0.0.1:${port}`)
    expect(output()).toContain('The app stopped (exit code 1)')

    for (const path of ['/', '/anything/else?x=1']) {
      const browser = await page(`${url}${path}`)
      expect(browser.status).toBe(500)
      expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const body = await browser.text()
      expect(body).toContain('<h1><span>500</span>SyntaxError: Expected identifier but found &quot;,&quot;</h1>')
      expect(body).toContain('<p class="where">App/Controllers/HomeController.ts:3:25</p>')
      // The line, marked, with a caret under the column.
      expect(body).toContain('&gt; 3 |     return { version: 1,, }\n    |                         ^')
    }
    const api = await json(`${url}/api/posts`)
    expect(api.status).toBe(500)
    expect(await api.json()).toEqual({
      error: 'SyntaxError: Expected identifier but found "," (App/Controllers/HomeController.ts:3:25)',
      file: 'App/Controllers/HomeController.ts',
      line: 3,
      column: 25,
    })
    const posted = await fetch(url, { method: 'POST', body: 'x'.repeat(100_000), headers: { accept: 'application/json' } })
    expect(posted.status).toBe(500)

    app.write('App/Controllers/HomeController.ts', controller('{ version: 1 }'))
    await waitFor(async () => (await json(url)).status === 200, 'the fixed app to answer')
    expect(await (await json(url)).json()).toEqual({ version: 1 })

    // Broken while it runs: the restart fails, and the error page answers again, for the new error.
    app.write('App/Controllers/HomeController.ts', controller('{ version: 2 ]'))
    await waitFor(async () => (await json(url)).status === 500, 'the error page after a restart that failed')
    expect(await (await json(url)).json()).toMatchObject({ error: expect.stringContaining('found "]"'), line: 3, column: 25 })
    app.write('App/Controllers/HomeController.ts', controller('{ version: 2 }'))
    await waitFor(async () => (await json(url)).status === 200, 'the app fixed again')
    expect(await (await json(url)).json()).toEqual({ version: 2 })
  }, 60_000)

  it('says no more than the app\'s own 500 when APP_DEBUG is false', async () => {
    app.write('App/Controllers/HomeController.ts', BROKEN)
    const { url } = await startFw(['serve', `--port=${await freePort()}`], { APP_DEBUG: 'false' }, errorPageUp)

    const api = await json(url)
    expect(api.status).toBe(500)
    expect(await api.json()).toEqual({ error: 'Internal Server Error' })
    const browser = await (await page(url)).text()
    expect(browser).toContain('Something went wrong on our side.')
    expect(browser).not.toContain('HomeController')
  })
})

describe('fw serve: what restarts it', () => {
  const controller = (version: number) =>
    `export class HomeController {\n  index() {\n    return { pid: process.pid, version: ${version}, greeting: process.env.GREETING ?? null }\n  }\n}\n`
  const routes = (extra = '') =>
    `import { Route } from 'fw-runtime'\nimport { HomeController } from '#app/Controllers/HomeController.js'\n\nRoute.get('/', [HomeController, 'index'])\n${extra}`
  const restarts = (output: string) => output.split('\n').filter((line) => line.endsWith('changed: restarting'))

  beforeEach(() => {
    app.write('App/Controllers/HomeController.ts', controller(1))
    app.write('routes/web.ts', routes())
    // Folders that exist before the server starts, so a watcher could be put on them at startup.
    app.write('storage/uploads/.gitkeep', '')
    app.write('storage/logs/.gitkeep', '')
    app.write('database/migrations/.gitkeep', '')
    app.write('coverage/.gitkeep', '')
  })

  it('restarts for the code, configuration and .env of the app, never for uploads, databases, logs, output or editor files', async () => {
    const { url, output } = await startFw(['serve', `--port=${await freePort()}`])
    const answer = async () => (await fetch(url)).json() as Promise<{ pid: number; version: number; greeting: string | null }>
    const first = await answer()

    // Written while the server runs: none of these is the app's code.
    const ignored = [
      'storage/uploads/photo.jpg',
      'storage/uploads/data.json',
      'storage/uploads/2026/11/script.js',
      'storage/logs/app.log',
      'storage/framework/cache.ts',
      'public/uploads/avatar.png',
      'public/uploads/export.json',
      'public/css/app.css',
      'database/database.sqlite',
      'database/database.sqlite-journal',
      'database/database.sqlite-wal',
      'app.log',
      'logs/server.json',
      'node_modules/some-package/index.js',
      'dist/routes/web.js',
      'coverage/coverage-final.json',
      '.git/index',
      'routes/.web.ts.swp',
      'routes/web.ts~',
      'routes/.#web.ts',
      'App/Controllers/4913',
      '.env.example',
      'tests/home.test.ts',
    ]
    for (const path of ignored) app.write(path, 'x')
    // Time for a restart they would cause (the watcher waits 100 ms for more changes), then the same process answers.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(await answer()).toEqual(first)
    expect(restarts(output())).toEqual([])

    app.write('App/Controllers/HomeController.ts', controller(2))
    await waitFor(async () => (await answer()).version === 2, 'a restart for the controller')
    app.write('routes/web.ts', routes("Route.get('/added', () => ({ added: true }))\n"))
    await waitFor(async () => (await fetch(`${url}/added`)).status === 200, 'a restart for routes/web.ts')
    app.write('.env', 'GREETING=hello\n')
    await waitFor(async () => (await answer()).greeting === 'hello', 'a restart for .env, with its new values')
    app.write('App/Models/Post.ts', 'export class Post {}\n')
    await waitFor(async () => restarts(output()).length === 4, 'a restart for a file in a new folder')
    app.write('config/app.json', '{}\n')
    await waitFor(async () => restarts(output()).length === 5 && (await fetch(url)).ok, 'a restart for a JSON file')

    expect(restarts(output())).toEqual([
      'App/Controllers/HomeController.ts changed: restarting',
      'routes/web.ts changed: restarting',
      '.env changed: restarting',
      'App/Models/Post.ts changed: restarting',
      'config/app.json changed: restarting',
    ])
    expect((await answer()).pid).not.toBe(first.pid)
  })

  it('explains what restarts it in fw serve --help', async () => {
    const help = await app.fw(['serve', '--help'])

    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Restarts when a .ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs or .json file of the app changes, or .env;')
    expect(help.stdout).toContain('storage/')
  })
})

describe('fw serve:node', () => {
  it('serves the same app on node:http', async () => {
    const port = await freePort()
    const { url, output } = await startFw(['serve:node', `--port=${port}`])

    expect(output()).toContain(`Fw (node:http) listening on http://127.0.0.1:${port}`)
    expect(await (await fetch(url)).json()).toEqual({ status: 'running' })
  })
})

describe('fw route:list', () => {
  it('prints method, path, name, handler and middleware as a table', async () => {
    app.write(
      'App/Controllers/UserController.ts',
      "export class UserController {\n  show() {\n    return { user: 1 }\n  }\n}\n",
    )
    app.write(
      'routes/web.ts',
      [
        "import { Route, type Middleware } from 'fw-runtime'",
        "import { UserController } from '../App/Controllers/UserController.js'",
        '',
        'const audit: Middleware = (_request, next) => next()',
        "Route.get('/', () => ({ status: 'running' })).name('home')",
        "Route.group({ prefix: '/api', middleware: ['auth'] }, () => {",
        "  Route.get('/users/{id}', [UserController, 'show']).name('users.show').middleware(audit)",
        '})',
        '',
      ].join('\n'),
    )

    const result = await app.fw(['route:list'])

    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n').map((line) => line.split(/ {2,}/))).toEqual([
      ['Method', 'Path', 'Name', 'Handler', 'Middleware'],
      Array.from({ length: 5 }, () => expect.stringMatching(/^-+$/)),
      ['GET', '/', 'home', 'Closure'],
      ['GET', '/api/users/{id}', 'users.show', 'UserController@show', 'auth, audit'],
    ])
  })

  it('shows the middleware bootstrap/app.ts adds with router.use, for every path and for path patterns, and its aliases', async () => {
    app.write(
      'bootstrap/app.ts',
      [
        "import type { Container, Middleware, Router } from 'fw-runtime'",
        '',
        'const requestTiming: Middleware = (_request, next) => next()',
        'const apiCors: Middleware = (_request, next) => next()',
        'const localeRedirect: Middleware = (_request, next) => next()',
        'const apiKey: Middleware = (_request, next) => next()',
        '',
        'export function configure(_container: Container, router: Router): void {',
        '  router.use(requestTiming)',
        "  router.use('/api/*', apiCors)",
        "  router.use('/docs', localeRedirect)",
        "  router.aliasMiddleware('api-key', apiKey)",
        '}',
        '',
      ].join('\n'),
    )
    app.write(
      'routes/web.ts',
      [
        "import { Route } from 'fw-runtime'",
        '',
        "Route.get('/', () => ({ status: 'running' }))",
        "Route.get('/api/users', () => []).middleware('api-key')",
        "Route.get('/{page?}', () => ({}))",
        '',
      ].join('\n'),
    )

    const result = await app.fw(['route:list'])

    expect(result.stderr).toBe('')
    expect(result.stdout.trim().split('\n').slice(2).map((line) => line.split(/ {2,}/))).toEqual([
      ['GET', '/', 'Closure', 'requestTiming'],
      ['GET', '/api/users', 'Closure', 'requestTiming, apiCors, api-key'],
      ['GET', '/{page?}', 'Closure', 'requestTiming, apiCors (/api/*), localeRedirect (/docs)'],
    ])
  })

  it('shows a Domain column when a route has a domain, and optional parameters and segment parameters as written', async () => {
    app.write(
      'routes/web.ts',
      [
        "import { Route } from 'fw-runtime'",
        '',
        "Route.get('/', () => ({ status: 'running' })).name('home')",
        "Route.get('/images/{id}.{ext}', () => ({})).name('images.show')",
        "Route.get('/posts/{year?}/{month?}', () => ({})).name('archive')",
        "Route.domain('{account}.example.com').group(() => {",
        "  Route.get('/users/{id}', () => ({})).name('tenant.user')",
        '})',
        '',
      ].join('\n'),
    )

    const result = await app.fw(['route:list'])

    expect(result.stderr).toBe('')
    const lines = result.stdout.trim().split('\n')
    expect(lines[0]!.split(/ {2,}/)).toEqual(['Method', 'Domain', 'Path', 'Name', 'Handler', 'Middleware'])
    // A route without a domain leaves its cell empty: the columns are read by their place in the header.
    const start = (title: string) => lines[0]!.indexOf(title)
    const cells = (line: string) => ['Domain', 'Path', 'Name'].map((title, index, titles) => {
      const end = index + 1 < titles.length ? start(titles[index + 1]!) : start('Handler')
      return line.slice(start(title), end).trim()
    })
    expect(lines.slice(2).map(cells)).toEqual([
      ['', '/', 'home'],
      ['', '/images/{id}.{ext}', 'images.show'],
      ['', '/posts/{year?}/{month?}', 'archive'],
      ['{account}.example.com', '/users/{id}', 'tenant.user'],
    ])
  })

  it('tells two controllers of one name apart by their folder', async () => {
    app.write('App/Controllers/UserController.ts', 'export class UserController {\n  show() {\n    return { user: 1 }\n  }\n}\n')
    app.write('App/Controllers/Api/UserController.ts', 'export class UserController {\n  store() {\n    return { api: true }\n  }\n}\n')
    app.write(
      'routes/web.ts',
      [
        "import { Route } from 'fw-runtime'",
        "import { UserController as ApiUserController } from '../App/Controllers/Api/UserController.js'",
        "import { UserController } from '../App/Controllers/UserController.js'",
        '',
        "Route.get('/users/{id}', [UserController, 'show'])",
        "Route.post('/api/users', [ApiUserController, 'store'])",
        '',
      ].join('\n'),
    )

    const result = await app.fw(['route:list'])

    expect(result.stderr).toBe('')
    const lines = result.stdout.trim().split('\n').map((line) => line.split(/ {2,}/))
    expect(lines.slice(2)).toEqual([
      ['GET', '/users/{id}', 'UserController@show'],
      ['POST', '/api/users', 'Api/UserController@store'],
    ])
  })
})

describe('#app/* imports (package.json imports, as in the starters)', () => {
  // The sources, and beside them a build in dist/ that must never be loaded: under fw serve and the fw
  // commands, #app/* names the TypeScript sources (the development condition), never dist/.
  beforeEach(() => {
    app.write('App/Controllers/HomeController.ts', "export class HomeController {\n  index() {\n    return { from: 'source' }\n  }\n}\n")
    app.write('dist/App/Controllers/HomeController.js', "throw new Error('the build in dist/ was loaded')\n")
    app.write(
      'routes/web.ts',
      "import { Route } from 'fw-runtime'\nimport { HomeController } from '#app/Controllers/HomeController.js'\n\nRoute.get('/', [HomeController, 'index'])\n",
    )
  })

  it.each(['serve', 'serve:node'])('fw %s runs them from the TypeScript sources', async (command) => {
    const { url } = await startFw([command, `--port=${await freePort()}`])
    expect(await (await fetch(url)).json()).toEqual({ from: 'source' })
  })

  it('public/index.ts run by hand without the condition loads the build in dist/, and one warning says so', async () => {
    app.write('dist/App/Controllers/HomeController.js', "export class HomeController {\n  index() {\n    return { from: 'dist' }\n  }\n}\n")
    const tsx = import.meta.resolve('tsx')

    const plain = await startNode(['--import', tsx, 'public/index.ts'], { PORT: String(await freePort()) })
    expect(await (await fetch(plain.url)).json()).toEqual({ from: 'dist' })
    const warnings = plain.output().split('\n').filter((line) => line.includes('--conditions=development'))
    expect(warnings).toEqual([
      '[fw] warning: public/index.ts runs without --conditions=development, so its #app/* imports load the build in dist/, not the TypeScript sources: use fw serve, or node --conditions=development --import tsx public/index.ts',
    ])
    running!.kill('SIGTERM')
    await new Promise((resolve) => running!.once('exit', resolve))

    const flagged = await startNode(['--conditions=development', '--import', tsx, 'public/index.ts'], { PORT: String(await freePort()) })
    expect(await (await fetch(flagged.url)).json()).toEqual({ from: 'source' })
    expect(flagged.output()).not.toContain('warning: public/index.ts')
  })

  it('fw route:list loads them from the sources, and knows the controller by its file', async () => {
    app.write('App/Controllers/Api/HomeController.ts', "export class HomeController {\n  index() {\n    return { api: true }\n  }\n}\n")
    app.write('routes/web.ts', `${app.read('routes/web.ts')}import { HomeController as ApiHomeController } from '#app/Controllers/Api/HomeController.js'\nRoute.get('/api', [ApiHomeController, 'index'])\n`)

    const result = await app.fw(['route:list'])

    expect(result.stderr).toBe('')
    expect(result.stdout.trim().split('\n').slice(2).map((line) => line.split(/ {2,}/))).toEqual([
      ['GET', '/', 'HomeController@index'],
      ['GET', '/api', 'Api/HomeController@index'],
    ])
  })
})

describe('fw command errors', () => {
  const broken = "import { Route } from 'fw-runtime'\n\nthrow new Error('routes are broken\\nat a second line')\n"

  it('print one line and exit 1, with a hint for the stack', async () => {
    app.write('routes/web.ts', broken)
    const result = await app.fw(['route:list'])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('fw route:list failed: routes are broken (run with --verbose for the stack)\n')
  })

  it('print the stack with --verbose, and only then', async () => {
    app.write('routes/web.ts', broken)
    const result = await app.fw(['route:list', '--verbose'], { APP_DEBUG: 'true' })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^fw route:list failed: Error: routes are broken\nat a second line\n\s+at /)
    expect((await app.fw(['route:list'], { APP_DEBUG: 'true' })).stderr.split('\n')).toHaveLength(2)
  })
})
