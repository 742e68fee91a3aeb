import { spawn } from 'node:child_process'
import { stripVTControlCharacters } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonLines, startFixture, type FixtureServer } from '../support/fixtureServer.js'

let running: FixtureServer | undefined
afterEach(async () => {
  await running?.stop()
  running = undefined
})

const startApp = (env: Record<string, string>) => startFixture('log-server.ts', env)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

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
    // The request line and the error line of one request share its id, the one the response carried.
    expect([error!.requestId, lines.find((line) => line.path === '/boom')!.requestId]).toEqual(Array(2).fill(boom.headers.get('x-request-id')))
  })

  it('logs no requests unless LOG_REQUESTS=true, but always the errors; the request id is sent back all the same', async () => {
    running = await startApp({ NODE_ENV: 'production' })
    const hello = await fetch(`${running.url}/hello`)
    expect(hello.headers.get('x-request-id')).toMatch(UUID)
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

describe.each<{ server: string; env: Record<string, string> }>([
  { server: 'polka', env: {} },
  { server: 'node:http', env: { FW_SERVER: 'node' } },
])('the request id of error lines on $server', ({ env }) => {
  it('in production, every error line is JSON with the requestId that the response carried in X-Request-Id', async () => {
    running = await startApp({ NODE_ENV: 'production', HANDLER_TIMEOUT_MS: '300', ...env })
    const sent = await fetch(`${running.url}/boom`, { headers: { 'X-Request-Id': 'edge-7f3a' } })
    const made = await fetch(`${running.url}/boom`, { headers: { 'X-Request-Id': 'not safe' } })
    const hung = await fetch(`${running.url}/hang`)
    expect([sent.status, made.status, hung.status]).toEqual([500, 500, 503])
    expect(sent.headers.get('x-request-id')).toBe('edge-7f3a')
    expect(made.headers.get('x-request-id')).toMatch(UUID)
    expect(hung.headers.get('x-request-id')).toMatch(UUID)

    const output = await running.waitFor((text) => jsonLines(text).filter((line) => line.level === 50).length === 3)
    const errors = jsonLines(output).filter((line) => line.level === 50)
    expect(errors.map((line) => line.requestId)).toEqual([sent, made, hung].map((response) => response.headers.get('x-request-id')))
    expect(errors[0]).toMatchObject({ msg: '[fw] GET /boom (route GET /boom) failed:', error: { message: 'the disk is full' } })
    expect(errors[2]).toMatchObject({ msg: '[fw] GET /hang (route GET /hang) did not answer within 300 ms: answered 503' })
  })

  it('in development, the error line shows the request id', async () => {
    running = await startApp(env)
    const boom = await fetch(`${running.url}/boom`, { headers: { 'X-Request-Id': 'dev-42' } })
    expect(boom.headers.get('x-request-id')).toBe('dev-42')
    const output = await running.waitFor((text) => text.includes('the disk is full'))
    expect(output).toMatch(/^\d\d:\d\d:\d\d \[fw\] GET \/boom \(route GET \/boom\) failed: requestId=dev-42 Error: the disk is full$/m)
    expect(jsonLines(output)).toEqual([])
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
