import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const runtime = fileURLToPath(new URL('../../', import.meta.url))

// An ES import of node:http loads undici (Node's fetch and WebSocket client), about 40 ms of every start
// (src/server/nodeHttp.ts). Serving on both servers and rendering an error page must not need it.
it('starts a server on polka and on node:http without loading undici', async () => {
  const script = `
    const { Container, Router, Response, serve, serveNode } = await import('./src/index.ts')
    const router = new Router(new Container())
    router.get('/', () => Response.json({ ok: true }))
    const answers = []
    for (const start of [serve, serveNode]) {
      const server = await start(router, { port: 0, handleSignals: false })
      const socket = (await import('node:net')).connect(server.port, '127.0.0.1')
      socket.write('GET /missing HTTP/1.1\\r\\nHost: x\\r\\nAccept: text/html\\r\\nConnection: close\\r\\n\\r\\n')
      let raw = ''
      for await (const chunk of socket) raw += chunk
      answers.push(raw.split('\\r\\n', 1)[0])
      await server.close()
    }
    console.log(JSON.stringify({ answers, undici: process.moduleLoadList.filter((name) => name.includes('undici')) }))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: runtime })
  expect(JSON.parse(stdout)).toEqual({ answers: ['HTTP/1.1 404 Not Found', 'HTTP/1.1 404 Not Found'], undici: [] })
})
