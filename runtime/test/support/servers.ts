import { connect } from 'node:net'
import type { Router } from '../../src/routing/Router.js'
import type { RunningServer, ServeOptions } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { serveNode } from '../../src/server/serveNode.js'
import { testClient } from '../../src/testing/TestClient.js'

/**
 * Both servers, so that one table of HTTP cases runs against each:
 * `describe.each(servers)('$name', ({ start }) => { ... })`.
 */
export const servers = [
  { name: 'serve (polka)', start: serve },
  { name: 'serveNode (node:http)', start: serveNode },
] as const

export type StartServer = (router: Router, options?: ServeOptions) => Promise<RunningServer>

/** Starts a server on a free port of 127.0.0.1 that leaves the process's signals alone. */
export function listenOn(start: StartServer, router: Router, options: ServeOptions = {}): Promise<RunningServer> {
  return start(router, { port: 0, host: '127.0.0.1', handleSignals: false, ...options })
}

/** A response body parsed as JSON, typed loosely for assertions. */
export async function readJson(res: globalThis.Response): Promise<any> {
  return res.json()
}

/** An application opened for requests: `fetch(path, init)` as the global fetch takes it, and `close()`. */
export interface OpenApp {
  fetch(path: string, init?: RequestInit): Promise<globalThis.Response>
  close(): Promise<void>
}

/**
 * The two servers over a real socket, and the in-process test client, so that one table of cases proves
 * that `fw-runtime/testing` answers as the servers do: `describe.each(transports)('$name', ({ open }) => …)`.
 */
export const transports = [
  ...servers.map(({ name, start }) => ({
    name,
    async open(router: Router, options: ServeOptions = {}): Promise<OpenApp> {
      const server = await listenOn(start, router, options)
      return { fetch: (path, init) => fetch(`${server.url}${path}`, init), close: () => server.close() }
    },
  })),
  {
    name: 'testClient (in process)',
    async open(router: Router, options: ServeOptions = {}): Promise<OpenApp> {
      const client = testClient(router, { bodyLimit: options.bodyLimit, uploadLimit: options.uploadLimit })
      return { fetch: (path, init) => client.fetch(path, init), close: async () => {} }
    },
  },
]

/** Sends raw bytes on a new connection and parses the one response that comes back, its status line kept as sent. */
export function sendRaw(url: string, raw: string): Promise<{ statusLine: string; status: number; body: string; headers: string }> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(raw))
    let data = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk))
    socket.on('error', reject).on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n')
      const statusLine = head.split('\r\n', 1)[0]!
      resolve({ statusLine, status: Number(statusLine.split(' ')[1]), body, headers: head.toLowerCase() })
    })
  })
}
