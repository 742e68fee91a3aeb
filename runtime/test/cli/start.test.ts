import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanEnv, createFwApp, FW, type FwApp } from '../support/fwApp.js'

/** The built app fw start runs: plain JavaScript in dist/, as `npm run build` leaves it. */
const ENTRY = `import { Container, Response, Router, db, loadEnv, sql, start } from 'fw-runtime'

loadEnv()
const router = new Router(Container.getInstance())
router.get('/', () => ({ pid: process.pid }))
router.get('/settings', async () => {
  await sql\`create table if not exists visits (id integer)\`.execute(db())
  return { greeting: process.env.GREETING ?? null }
})
router.get('/throw-later', () => {
  setTimeout(() => { throw new Error('thrown in a timer') }, 0)
  return { pid: process.pid }
})
router.get('/reject-later', () => {
  void Promise.reject(new Error('nobody awaits this'))
  return { pid: process.pid }
})
router.get('/slow', async () => {
  console.log('slow request started')
  await new Promise((resolve) => setTimeout(resolve, 500))
  return Response.json({ finished: true })
})
await start(router)
`

let app: FwApp
let running: ChildProcess | undefined
beforeEach(() => {
  app = createFwApp()
  app.write('dist/public/index.js', ENTRY)
})
afterEach(async () => {
  if (running && running.exitCode === null && running.signalCode === null) {
    // SIGTERM, so that fw start's workers stop with it; SIGKILL if it does not stop.
    const exited = once(running, 'exit')
    running.kill('SIGTERM')
    const force = setTimeout(() => running?.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(force)
  }
  running = undefined
  app.remove()
})

interface Started {
  child: ChildProcess
  port: number
  output: () => string
}

/** Starts a command in the app and resolves once it prints that it listens. */
function launch(args: string[], env: NodeJS.ProcessEnv = {}, cwd = app.dir): Promise<Started> {
  const child = spawn(process.execPath, args, { cwd, env: cleanEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] })
  running = child
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)
      if (match) resolve({ child, port: Number(match[1]), output: () => output })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)))
  })
}

interface Answer {
  status: number
  connection: string | undefined
  body: string
}

function get(port: number, path: string, agent: Agent | false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }))
      res.on('error', reject)
    })
    // Whether the request went on a kept-alive connection (one that answered before), or on a new one.
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })))
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')))
    req.end()
  })
}

/**
 * Bounded load on 127.0.0.1: `clients` loops of GET `path` until stopped. With `agent: false` every request opens
 * a new connection, so a refused connection shows; with a keep-alive agent, connections are reused. `stopOnRefused`:
 * a loop ends when the server is gone (a new connection refused, or reset before it was read).
 */
function load(port: number, path: string, clients: number, agent: Agent | false, stopOnRefused = false) {
  const errors: string[] = []
  const pids = new Set<number>()
  let answered = 0
  let stopped = false
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) {
      try {
        const answer = await get(port, path, agent)
        if (answer.status !== 200) errors.push(`status ${answer.status}`)
        else pids.add((JSON.parse(answer.body) as { pid: number }).pid)
        answered++
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
        // A server that stops listening refuses new connections; one it had accepted in its backlog (or, with
        // --workers, that the primary had accepted for a worker) as it closed is reset before any answer. Either says
        // "gone": the request was never read. A kept-alive connection reset under a request is what must not happen.
        const reusedSocket = (error as { reusedSocket?: boolean }).reusedSocket === true
        if (stopOnRefused && (code === 'ECONNREFUSED' || (code === 'ECONNRESET' && !reusedSocket))) return
        errors.push(code)
      }
    }
  })
  return {
    errors,
    pids,
    answered: () => answered,
    async stop() {
      stopped = true
      await Promise.all(loops)
    },
  }
}

async function waitFor(check: () => boolean, what: string, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`Timed out waiting for ${what}; output:\n${output()}`)
}


/**
 * Starts the app, keeps 8 kept-alive connections busy, sends SIGTERM while a slow request is in flight, and
 * checks that nothing was reset, the slow answer came with Connection: close, and the process exited 0.
 */
async function sigtermUnderKeepAlive(args: string[]): Promise<void> {
  const { child, port, output } = await launch(args)
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  try {
    const traffic = load(port, '/', 8, agent, true)
    await waitFor(() => traffic.answered() > 200, 'keep-alive load', output)
    const slow = get(port, '/slow', false)
    await waitFor(() => output().includes('slow request started'), 'the slow request', output)
    child.kill('SIGTERM')
    const [code] = (await once(child, 'exit')) as [number]
    await traffic.stop()

    expect(await slow).toEqual({ status: 200, connection: 'close', body: '{"finished":true}' })
    expect(traffic.errors).toEqual([])
    expect(code).toBe(0)
  } finally {
    agent.destroy()
  }
}

describe('fw start', () => {
  it('refuses a build that is not there and a bad --workers, in one line', async () => {
    expect(await app.fw(['start', '--workers=two'])).toMatchObject({
      code: 1,
      stderr: 'Invalid --workers "two": use a whole number from 1, or auto for one per CPU\n',
    })
    const { rmSync } = await import('node:fs')
    rmSync(`${app.dir}/dist`, { recursive: true })
    expect(await app.fw(['start'])).toMatchObject({ code: 1, stderr: `No dist/public/index.js in ${app.dir}: run npm run build first\n` })
  })

  it.each(['/throw-later', '/reject-later'])(
    'with --workers=2, a worker killed by %s is logged and replaced while the port keeps answering',
    async (path) => {
      const { port, output } = await launch([FW, 'start', '--workers=2'])
      expect(output()).toContain('(2 workers, primary ')
      const traffic = load(port, '/', 4, false)
      await waitFor(() => traffic.pids.size === 2, 'both workers to answer', output)
      const doomed = JSON.parse((await get(port, path, false)).body) as { pid: number }
      await waitFor(() => output().includes(`worker ${doomed.pid} hit an uncaught error: starting its replacement`), 'the replacement', output)
      await waitFor(() => traffic.pids.size === 3, 'the replacement to answer', output)
      const answeredBefore = traffic.answered()
      await waitFor(() => traffic.answered() > answeredBefore + 20, 'more answers', output)
      await traffic.stop()

      expect(traffic.errors).toEqual([])
      expect(output()).toMatch(path === '/throw-later' ? /thrown in a timer/ : /nobody awaits this/)
      const alive = () => {
        try {
          return process.kill(doomed.pid, 0)
        } catch {
          return false
        }
      }
      await waitFor(() => !alive(), 'the old worker to exit', output)
    },
  )

  it('SIGHUP replaces every worker one by one and refuses no connection under load', async () => {
    const { child, port, output } = await launch([FW, 'start', '--workers=2'])
    const traffic = load(port, '/', 4, false)
    await waitFor(() => traffic.pids.size === 2, 'both workers to answer', output)
    const before = new Set(traffic.pids)
    child.kill('SIGHUP')
    await waitFor(() => output().includes('every worker replaced'), 'the roll to finish', output)
    traffic.pids.clear()
    const answeredBefore = traffic.answered()
    await waitFor(() => traffic.answered() > answeredBefore + 50, 'answers after the roll', output)
    await traffic.stop()

    expect(traffic.errors).toEqual([])
    expect([...traffic.pids].filter((pid) => before.has(pid))).toEqual([])
  })

  it('on SIGTERM under keep-alive load resets nothing: answers in flight say Connection: close, and it exits 0', () =>
    sigtermUnderKeepAlive([FW, 'start', '--workers=2']))
})

describe('the built app outside fw start', () => {
  it('started from another folder, reads .env and keeps its SQLite file in the app, and says what is missing once', async () => {
    app.write('.env', 'GREETING=from the app folder\nAPP_KEY=base64:c2VjcmV0\n')
    const { port, output } = await launch([join(app.dir, 'dist/public/index.js')], { APP_KEY: undefined, API_KEY: undefined }, tmpdir())
    const answer = await get(port, '/settings', false)

    expect(answer).toMatchObject({ status: 200, body: '{"greeting":"from the app folder"}' })
    expect(existsSync(join(app.dir, 'database/database.sqlite'))).toBe(true)
    expect(existsSync(join(tmpdir(), 'database/database.sqlite'))).toBe(false)
    expect(output().match(/\[fw\] warning: .*/g)).toEqual(['[fw] warning: API_KEY is not set (see .env.example)'])
  })

  it('without .env, APP_KEY or API_KEY, says so once even with several workers', async () => {
    const { output } = await launch([FW, 'start', '--workers=2'], { APP_KEY: undefined, API_KEY: undefined })
    expect(output().match(/\[fw\] warning: .*/g)).toEqual([
      `[fw] warning: no .env in ${app.dir}: settings come from the environment only`,
      '[fw] warning: APP_KEY and API_KEY are not set (see .env.example)',
      '[fw] warning: make an APP_KEY with npx fw key:generate',
    ])
  })

  it('with mail classes in the build, says once that production has no MAIL_MAILER, under fw start and node dist/public/index.js', async () => {
    app.write('.env', 'APP_KEY=base64:c2VjcmV0\nAPI_KEY=key\n')
    app.write('dist/App/Mail/WelcomeMail.js', 'export class WelcomeMail {}\n')
    const line =
      "[fw] warning: the app's mail cannot be sent (dist/App/Mail has mail classes): MAIL_MAILER is not set, and in production Fw will not write mail to the log instead of sending it: set MAIL_MAILER=smtp and MAIL_URL=smtp://user:pass@host:port"
    const unset = { MAIL_MAILER: undefined, MAIL_URL: undefined, MAIL_FROM: undefined }
    const started = await launch([FW, 'start', '--workers=2'], unset)
    expect(started.output().match(/\[fw\] warning: .*/g)).toEqual([line])
    started.child.kill('SIGTERM')
    await once(started.child, 'exit')

    const plain = await launch(['dist/public/index.js'], { ...unset, NODE_ENV: 'production' })
    expect(plain.output().match(/\[fw\] warning: .*/g)).toEqual([line])
  })

  it('with mail classes in the build and the mail settings right, or outside production, says nothing of mail', async () => {
    app.write('.env', 'APP_KEY=base64:c2VjcmV0\nAPI_KEY=key\n')
    app.write('dist/App/Mail/WelcomeMail.js', 'export class WelcomeMail {}\n')
    const smtp = await launch(['dist/public/index.js'], { NODE_ENV: 'production', MAIL_MAILER: 'smtp', MAIL_URL: 'smtp://user:secret@smtp.example.com:587', MAIL_FROM: 'Acme <hello@acme.test>' })
    expect(smtp.output()).not.toContain('[fw] warning')
    smtp.child.kill('SIGTERM')
    await once(smtp.child, 'exit')
    const local = await launch(['dist/public/index.js'], { NODE_ENV: undefined, MAIL_MAILER: undefined })
    expect(local.output()).not.toContain('[fw] warning')
  })

  it('with mail classes in the build, says what is wrong with MAIL_URL, never showing it', async () => {
    app.write('.env', 'APP_KEY=base64:c2VjcmV0\nAPI_KEY=key\n')
    app.write('dist/App/Mail/WelcomeMail.js', 'export class WelcomeMail {}\n')
    const { output } = await launch(['dist/public/index.js'], { MAIL_MAILER: 'smtp', MAIL_URL: 'https://user:secret@smtp.example.com', MAIL_FROM: 'Acme <hello@acme.test>' })
    expect(output().match(/\[fw\] warning: .*/g)).toEqual([
      expect.stringMatching(/^\[fw\] warning: the app's mail cannot be sent \(dist\/App\/Mail has mail classes\): MAIL_URL must be smtp:\/\/user:pass@host:port .*; it is a https: URL$/),
    ])
    expect(output()).not.toContain('secret')
  })

  it('on SIGTERM under keep-alive load resets nothing and exits 0', () => sigtermUnderKeepAlive(['dist/public/index.js']))

  it('an error thrown in a timer is logged, the request in flight finishes, and the process exits 1', async () => {
    const { child, port, output } = await launch(['dist/public/index.js'])
    const slow = get(port, '/slow', false)
    await waitFor(() => output().includes('slow request started'), 'the slow request', output)
    await get(port, '/throw-later', false)
    const [code] = (await once(child, 'exit')) as [number]

    expect(await slow).toMatchObject({ status: 200, body: '{"finished":true}' })
    expect(code).toBe(1)
    expect(output()).toContain('[fw] uncaught error; finishing the requests in flight, then exiting:')
    expect(output()).toContain('thrown in a timer')
  })
})
