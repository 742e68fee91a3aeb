import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import { PortInUseError, type RunningServer } from '../../src/server/listen.js'
import { listenOn, readJson, servers } from '../support/servers.js'
import { freePort } from '../support/freePort.js'

const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url))
const slowApp = fileURLToPath(new URL('../fixtures/slow-server.ts', import.meta.url))

describe.each(servers)('$name', ({ name, start }) => {
  let server: RunningServer

  beforeAll(async () => {
    const router = new Router(new Container())
    router.get('/hello', () => Response.json({ message: 'Hello, World!' }))
    router.post('/echo', (request) => Response.json({ received: request.all() }, 201))
    server = await listenOn(start, router, { headersTimeout: 4_000, requestTimeout: 8_000, keepAliveTimeout: 3_000 })
  })
  afterAll(() => server.close())

  it('listens on 127.0.0.1 and reports its URL', async () => {
    expect(server.host).toBe('127.0.0.1')
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`)
    expect((await fetch(`${server.url}/hello`)).status).toBe(200)
  })

  it("sets Node's header, request and keep-alive timeouts, checked every second", () => {
    expect(server.server.headersTimeout).toBe(4_000)
    expect(server.server.requestTimeout).toBe(8_000)
    expect(server.server.keepAliveTimeout).toBe(3_000)
    // Node checks the first two every 30 s by default, which let a slow client hold on for up to 30 s more.
    expect((server.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(1_000)
  })

  it('answers many concurrent requests on kept-alive connections', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${server.url}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ i }) }),
      ),
    )
    const bodies = await Promise.all(responses.map((res) => readJson(res)))
    expect(bodies.map((body) => body.received.i)).toEqual(Array.from({ length: 50 }, (_, i) => i))
  })

  it('a listener that throws or rejects outside the router answers 500, logs it, and the server keeps serving', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const faulty = await start(
      (req, res) => {
        if (req.url === '/throws') throw new Error('thrown synchronously')
        if (req.url === '/rejects') return Promise.reject(new Error('rejected'))
        res.end('ok')
      },
      { port: 0, host: '127.0.0.1', handleSignals: false },
    )
    try {
      for (const path of ['/throws', '/rejects']) {
        const res = await fetch(`${faulty.url}${path}`)
        expect(res.status).toBe(500)
        expect(await readJson(res)).toEqual({ error: 'Internal Server Error' })
      }
      expect(await (await fetch(`${faulty.url}/fine`)).text()).toBe('ok')
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([
        '[fw] request failed outside the router:',
        '[fw] request failed outside the router:',
      ])
    } finally {
      errors.mockRestore()
      await faulty.close()
    }
  })

  it('answers requests read together in one turn, in order, and one that fails loses none of the others', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    // How many requests had started when each reached its first await: all of those read together.
    const startedBeforeAwait: number[] = []
    let started = 0
    const app = await start(
      async (req, res) => {
        started++
        if (req.url === '/throws') throw new Error('thrown synchronously')
        await null
        startedBeforeAwait.push(started)
        if (req.url === '/rejects') throw new Error('rejected')
        if (req.url === '/slow') await new Promise((resolve) => setTimeout(resolve, 50))
        res.writeHead(200, { 'Content-Length': Buffer.byteLength(req.url!) }).end(req.url)
      },
      { port: 0, host: '127.0.0.1', handleSignals: false },
    )
    try {
      const paths = ['/one', '/throws', '/slow', '/rejects', '/five']
      const answers = await pipelined(app.port, paths)
      expect(answers.map((answer) => answer.status)).toEqual([200, 500, 200, 500, 200])
      const failed = '{"error":"Internal Server Error"}'
      expect(answers.map((answer) => answer.body)).toEqual(['/one', failed, '/slow', failed, '/five'])
      expect(startedBeforeAwait).toEqual([5, 5, 5, 5])
      expect(errors).toHaveBeenCalledTimes(2)
    } finally {
      errors.mockRestore()
      await app.close()
    }
  })

  it('a port in use is a PortInUseError with a message fit to print', async () => {
    const error = await listenOn(start, new Router(new Container()), { port: server.port }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PortInUseError)
    expect((error as Error).message).toBe(
      `Port ${server.port} is already in use on 127.0.0.1; stop the other server or choose another port with --port`,
    )
  })

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, [tsx, slowApp], {
      env: { ...process.env, PORT: String(port), FW_SERVER: name.startsWith('serveNode') ? 'node' : 'polka' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk))
      await waitFor(() => output.includes('listening on'), 15_000, () => output)
      expect(output).toContain(name.startsWith('serveNode') ? 'Fw (node:http) listening on' : 'Fw listening on')
      const inFlight = fetch(`http://127.0.0.1:${port}/slow`)
      await waitFor(() => output.includes('slow request started'), 5_000, () => output)
      child.kill('SIGTERM')
      const res = await inFlight
      expect(res.status).toBe(200)
      expect(await readJson(res)).toEqual({ finished: true })
      const [code] = await once(child, 'exit')
      expect(code).toBe(0)
      await expect(fetch(`http://127.0.0.1:${port}/slow`)).rejects.toThrow()
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})

/** Sends the GETs in one write on one connection (the last asks to close it); resolves to the answers read until it closes. */
async function pipelined(port: number, paths: readonly string[]): Promise<{ status: number; body: string }[]> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  const last = paths.length - 1
  socket.write(paths.map((path, i) => `GET ${path} HTTP/1.1\r\nHost: x\r\n${i === last ? 'Connection: close\r\n' : ''}\r\n`).join(''))
  let raw = ''
  for await (const chunk of socket) raw += String(chunk)
  const answers: { status: number; body: string }[] = []
  while (raw.length > 0) {
    const headEnd = raw.indexOf('\r\n\r\n')
    const head = raw.slice(0, headEnd)
    const length = Number(/^content-length: (\d+)$/im.exec(head)?.[1])
    answers.push({ status: Number(head.slice(9, 12)), body: raw.slice(headEnd + 4, headEnd + 4 + length) })
    raw = raw.slice(headEnd + 4 + length)
  }
  return answers
}

async function waitFor(check: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out; output so far:\n${describe()}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
