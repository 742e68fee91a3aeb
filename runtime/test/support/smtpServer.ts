import { createServer, type Socket } from 'node:net'
import { text } from 'node:stream/consumers'
import { SMTPServer, type SMTPServerError } from 'smtp-server'

/** A message the test server took: its envelope and its raw DATA (headers and parts). */
export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
}

/** A real SMTP server on 127.0.0.1 for the mail tests: plain text (STARTTLS off), no authentication needed. */
export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for MAIL_URL. */
  url: string
  received: ReceivedMail[]
  /** What the server answers to the end of DATA: undefined takes the message; `{ code: 550, … }` refuses it. */
  refuse: { code: number; message: string } | undefined
  close(): Promise<void>
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = []
  const test: TestSmtpServer = { url: '', received, refuse: undefined, close: () => new Promise((resolve) => server.close(() => resolve())) }
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    async onData(stream, session, callback) {
      const raw = await text(stream)
      if (test.refuse) {
        const error: SMTPServerError = new Error(test.refuse.message)
        error.responseCode = test.refuse.code
        return callback(error)
      }
      const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address
      received.push({ from, to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw })
      callback()
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  test.url = `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`
  return test
}

/** A TCP server that accepts connections and never says a word: a mail server that hangs before its greeting. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `smtp://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
