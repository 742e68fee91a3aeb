import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'

const app = fileURLToPath(new URL('../fixtures/log-server.ts', import.meta.url))
const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url))

interface Running {
  url: string
  output(): string
  stop(): Promise<void>
}

let running: Running | undefined
afterEach(async () => {
  await running?.stop()
  running = undefined
})

/** The fixture app on a free port, with the given environment; resolves once it listens. */
function startApp(env: Record<string, string>): Promise<Running> {
  const base: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }
  for (const key of ['NODE_ENV', 'APP_ENV', 'LOG_REQUESTS', 'LOG_FORMAT', 'VITEST']) if (!(key in env)) delete base[key]
  const child: ChildProcess = spawn(process.execPath, [tsx, app], { env: base, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url) {
        clearInterval(timer)
        resolve({ url, output: () => stripVTControlCharacters(output), stop: async () => (child.kill('SIGTERM'), await exited) })
      }
    }, 20)
    child.once('exit', (code) => {
      clearInterval(timer)
      reject(new Error(`exited with ${code}: ${output}`))
    })
  })
}

/** The JSON lines printed so far, parsed. */
function jsonLines(output: string): Record<string, any>[] {
  return output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line))
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 150))
}

describe('request and error logs', () => {
  it('in production: JSON lines with the request id taken from X-Request-Id, and errors with their stack', async () => {
    running = await startApp({ NODE_ENV: 'production', LOG_REQUESTS: 'true' })
    const hello = await fetch(`${running.url}/hello`, { headers: { 'X-Request-Id': 'req-123' } })
    expect(hello.headers.get('x-request-id')).toBe('req-123')
    const generated = await fetch(`${running.url}/hello`, { headers: { 'X-Request-Id': 'not safe' } })
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const boom = await fetch(`${running.url}/boom`)
    expect(await boom.json()).toEqual({ error: 'Internal Server Error' })
    await settle()

    const lines = jsonLines(running.output())
    expect(lines.find((line) => line.requestId === 'req-123')).toMatchObject({ level: 30, msg: 'request', method: 'GET', path: '/hello', status: 200, ms: expect.any(Number) })
    const error = lines.find((line) => line.level === 50)
    expect(error).toMatchObject({ msg: expect.stringContaining('GET /boom'), error: { message: 'the disk is full' } })
    expect(error!.error.stack).toContain('log-server.ts')
    expect(lines.find((line) => line.path === '/boom' && line.msg === 'request')).toMatchObject({ status: 500 })
  })

  it('logs no requests unless LOG_REQUESTS=true, but always the errors', async () => {
    running = await startApp({ NODE_ENV: 'production' })
    const hello = await fetch(`${running.url}/hello`)
    expect(hello.headers.get('x-request-id')).toBe(null)
    await fetch(`${running.url}/boom`)
    await settle()
    const lines = jsonLines(running.output())
    expect(lines.filter((line) => line.msg === 'request')).toEqual([])
    expect(lines.filter((line) => line.level === 50)).toHaveLength(1)
  })

  it('in development: one short line per request, coloured by status', async () => {
    running = await startApp({ LOG_REQUESTS: 'true' })
    await fetch(`${running.url}/hello`)
    await fetch(`${running.url}/nowhere`)
    await settle()
    expect(running.output()).toMatch(/^\d\d:\d\d:\d\d GET \/hello 200 \d+\.\d ms$/m)
    expect(running.output()).toMatch(/^\d\d:\d\d:\d\d GET \/nowhere 404 \d+\.\d ms$/m)
    expect(jsonLines(running.output())).toEqual([])
  })
})

describe('fw serve', () => {
  it('prints one line per request', async () => {
    const { createFwApp, FW, cleanEnv } = await import('../support/fwApp.js')
    const fwApp = createFwApp()
    const child = spawn(process.execPath, [FW, 'serve', '--port=0'], { cwd: fwApp.dir, env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      for (let i = 0; i < 200 && !/listening on (http:\/\/\S+)/.test(output); i++) await new Promise((resolve) => setTimeout(resolve, 50))
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!
      expect((await fetch(`${url}/`)).status).toBe(200)
      await settle()
      expect(stripVTControlCharacters(output)).toMatch(/^\d\d:\d\d:\d\d GET \/ 200 \d+\.\d ms$/m)
    } finally {
      child.kill('SIGTERM')
      await exited
      fwApp.remove()
    }
  })
})
