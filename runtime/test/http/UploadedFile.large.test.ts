import { createHash } from 'node:crypto'
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { request as httpRequest, type ClientRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { S3Disk } from '../../src/storage/S3Disk.js'
import { startFixture, type FixtureServer } from '../support/fixtureServer.js'
import { startS3Server, type S3Server } from '../support/s3Server.js'

/**
 * Uploads far larger than memory should hold, through a server in a process of its own (so that its memory is the
 * server's alone), on both servers: stored byte for byte on the local disk and on a real S3-compatible server
 * (s3rver), with the server's memory growing by a small part of the file, and the temporary files gone after the
 * answer, after a client that gives up half-way, and after a 413.
 */
const MiB = 1024 * 1024
const SIZE = 50 * MiB
const CHUNK = 64 * 1024
const BOUNDARY = 'fw-large-upload'

/** Bytes that are not all alike: each 64 KiB chunk carries its own number, so a lost or repeated chunk changes the hash. */
function chunkAt(index: number): Buffer {
  const chunk = Buffer.alloc(CHUNK, index % 251)
  chunk.writeUInt32BE(index, 0)
  return chunk
}

interface Sent {
  sha256: string
  status: number
  body: any
}

/**
 * Sends `size` bytes as the file `file` of a multipart body, 64 KiB at a time as the socket takes them (never whole
 * in this process either): with its Content-Length, or chunked. `abortAfter` bytes in, the client destroys the
 * request instead, once `beforeAbort` resolves.
 */
function upload(url: string, options: { size: number; chunked?: boolean; abortAfter?: number; beforeAbort?: () => Promise<void> }): Promise<Sent> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  const headers: Record<string, string> = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` }
  if (options.chunked !== true) headers['Content-Length'] = String(head.length + options.size + tail.length)
  const hash = createHash('sha256')
  return new Promise((resolve, reject) => {
    const req: ClientRequest = httpRequest(url, { method: 'POST', headers, agent: false })
    req.on('error', (error: NodeJS.ErrnoException) => (options.abortAfter === undefined ? reject(error) : undefined))
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ sha256: hash.digest('hex'), status: res.statusCode!, body: text.startsWith('{') ? JSON.parse(text) : text }))
    })
    void (async () => {
      req.write(head)
      for (let sent = 0, index = 0; sent < options.size; sent += CHUNK, index++) {
        if (req.destroyed) return
        if (options.abortAfter !== undefined && sent >= options.abortAfter) {
          await options.beforeAbort?.()
          req.destroy()
          resolve({ sha256: '', status: 0, body: 'aborted' })
          return
        }
        const chunk = chunkAt(index).subarray(0, Math.min(CHUNK, options.size - sent))
        hash.update(chunk)
        if (!req.write(chunk)) await new Promise((drained) => req.once('drain', drained))
      }
      req.end(tail)
    })()
  })
}

async function sha256Of(stream: NodeJS.ReadableStream): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of stream) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Waits (at most 5 s) until the folder holds no `fw-upload-*` folder; returns what is left. */
async function uploadFoldersLeft(folder: string): Promise<string[]> {
  const left = () => readdirSync(folder).filter((name) => name.startsWith('fw-upload-'))
  for (let i = 0; i < 250 && left().length > 0; i++) await new Promise((wake) => setTimeout(wake, 20))
  return left()
}

let s3: S3Server
let bucket: S3Disk
beforeAll(async () => {
  s3 = await startS3Server()
  bucket = new S3Disk(s3.options)
})
afterAll(() => s3.close())

describe.each([
  { server: 'polka (fw serve)', env: {} as Record<string, string> },
  { server: 'node:http (fw serve:node)', env: { FW_SERVER: 'node' } },
])('a 50 MB upload on $server', ({ env }) => {
  let app: FixtureServer
  // The fixture's temporary folder (TMPDIR) and its local disk, both of this test alone.
  const temp = mkdtempSync(join(tmpdir(), 'fw-large-tmp-'))
  const localRoot = mkdtempSync(join(tmpdir(), 'fw-large-disk-'))

  beforeAll(async () => {
    const gc = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim() }
    app = await startFixture('large-upload-server.ts', { ...env, ...s3.env, ...gc, TMPDIR: temp, LOCAL_DISK_ROOT: localRoot })
    // Warm up: the first upload loads the parser and the S3 SDK, which are not what is measured.
    for (const disk of ['local', 's3']) expect((await upload(`${app.url}/store?disk=${disk}`, { size: 4 * MiB })).status).toBe(200)
  }, 60_000)
  afterAll(async () => {
    await app.stop()
    rmSync(temp, { recursive: true, force: true })
    rmSync(localRoot, { recursive: true, force: true })
  })

  it.each(['local', 's3'])('is stored on the %s disk byte for byte, while the server grows by far less than the file', async (disk) => {
    const baseline = (await (await fetch(`${app.url}/memory/reset`, { method: 'POST' })).json()) as { rss: number; arrayBuffers: number }
    const sent = await upload(`${app.url}/store?disk=${disk}`, { size: SIZE })
    const peak = (await (await fetch(`${app.url}/memory/peak`)).json()) as { rss: number; arrayBuffers: number }

    expect(sent.status).toBe(200)
    expect(sent.body.size).toBe(SIZE)
    // The file was on disk while the handler ran, and is gone once answered.
    expect(sent.body.uploadFolders).toHaveLength(1)
    expect(await uploadFoldersLeft(temp)).toEqual([])

    const stored = disk === 'local' ? createReadStream(join(localRoot, 'private', sent.body.key)) : await bucket.getStream(sent.body.key)
    expect(await sha256Of(stored)).toBe(sent.sha256)

    // Held whole, the file would be 50 MiB of buffers held (and as much again joined into one); streamed, the server
    // holds its socket's, its parser's and its disk's buffers. Measured: about 1 MiB of buffers, 3 MiB of RSS.
    expect(peak.arrayBuffers - baseline.arrayBuffers).toBeLessThan(12 * MiB)
    expect(peak.rss - baseline.rss).toBeLessThan(25 * MiB)
  })

  it('moveTo renames the temporary file into place', async () => {
    const target = join(localRoot, 'moved', 'big.bin')
    const sent = await upload(`${app.url}/move?to=${encodeURIComponent(target)}`, { size: 8 * MiB })
    expect([sent.status, sent.body.path]).toEqual([200, target])
    expect(statSync(target).size).toBe(8 * MiB)
    expect(await sha256Of(createReadStream(target))).toBe(sent.sha256)
    expect(await uploadFoldersLeft(temp)).toEqual([])
  })

  it('removes the temporary file of a client that stops half-way', async () => {
    let seenOnDisk = 0
    await upload(`${app.url}/store?disk=local`, {
      size: SIZE,
      abortAfter: 10 * MiB,
      // The upload is cut only once the server has part of it in a temporary file.
      beforeAbort: async () => {
        for (let i = 0; i < 250 && seenOnDisk === 0; i++) {
          for (const folder of readdirSync(temp).filter((name) => name.startsWith('fw-upload-'))) {
            for (const file of readdirSync(join(temp, folder))) seenOnDisk = Math.max(seenOnDisk, statSync(join(temp, folder, file)).size)
          }
          if (seenOnDisk === 0) await new Promise((wake) => setTimeout(wake, 20))
        }
      },
    })
    expect(seenOnDisk).toBeGreaterThan(0)
    expect(await uploadFoldersLeft(temp)).toEqual([])
    // The server still serves.
    expect((await upload(`${app.url}/store?disk=local`, { size: 2 * MiB })).status).toBe(200)
  })

  it.each([
    ['declared with its Content-Length', false],
    ['chunked, past the limit half-way', true],
  ])('answers 413 to an upload over the 64 MiB limit, %s, and leaves no temporary file', async (_how, chunked) => {
    const sent = await upload(`${app.url}/store?disk=local`, { size: 70 * MiB, chunked })
    expect([sent.status, sent.body]).toEqual([413, { error: 'Payload Too Large' }])
    expect(await uploadFoldersLeft(temp)).toEqual([])
  })
})
