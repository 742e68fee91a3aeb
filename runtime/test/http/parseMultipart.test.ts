import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import { readJson, transports, type OpenApp } from '../support/servers.js'

// This file's own temporary folder (os.tmpdir() reads TMPDIR), to see the upload folders come and go.
const temp = mkdtempSync(join(tmpdir(), 'fw-multipart-tmp-'))
const previousTmpdir = process.env.TMPDIR
process.env.TMPDIR = temp
afterAll(() => {
  if (previousTmpdir === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = previousTmpdir
  rmSync(temp, { recursive: true, force: true })
})

const KiB = 1024
const MiB = 1024 * KiB
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** Bytes that differ along the file, so that a misplaced chunk changes the hash. */
function bytesOf(size: number): Buffer {
  const bytes = Buffer.alloc(size)
  for (let i = 0; i + 4 <= size; i += 4) bytes.writeUInt32BE(i >>> 2, i)
  return bytes
}

/** The upload folders under the temporary folder, with the files in each. */
function uploadFolders(): string[][] {
  return readdirSync(temp)
    .filter((name) => name.startsWith('fw-upload-'))
    .map((name) => readdirSync(join(temp, name)))
}

/** Waits (at most 5 s) until no upload folder is left; returns what is. */
async function foldersLeft(): Promise<string[][]> {
  for (let i = 0; i < 250 && uploadFolders().length > 0; i++) await new Promise((wake) => setTimeout(wake, 20))
  return uploadFolders()
}

describe.each(transports)('multipart bodies read as they arrive, on $name', ({ open: openApp }) => {
  let server: OpenApp

  beforeAll(async () => {
    const router = new Router(new Container())
    router.post('/files', async (request) => {
      const files = []
      for (const file of Object.values(request.files()).flat()) {
        const streamed = createHash('sha256')
        for await (const chunk of file.stream()) streamed.update(chunk as Buffer)
        files.push({ name: file.name, type: file.type, size: file.size, bytes: sha256(file.bytes()), stream: streamed.digest('hex') })
      }
      return Response.json({ fields: request.all(), files, uploadFolders: uploadFolders() })
    })
    router.post('/fails', () => {
      throw new Error('the handler failed after the upload')
    })
    server = await openApp(router, { bodyLimit: 64 * KiB, uploadLimit: 8 * MiB })
  })
  afterAll(() => server.close())

  it('keeps a request’s files in memory up to 1 MiB in all, writes the others to one temporary folder, and removes it once answered', async () => {
    const small = bytesOf(10 * KiB)
    const middle = bytesOf(600 * KiB)
    const large = bytesOf(2 * MiB + 3)
    const form = new FormData()
    form.append('title', 'holiday')
    form.append('small', new Blob([small], { type: 'text/plain' }), 'small.txt')
    form.append('photos[]', new Blob([middle], { type: 'image/png' }), 'middle.png')
    form.append('photos[]', new Blob([large], { type: 'image/png' }), 'large.png')
    const response = await server.fetch('/files', { method: 'POST', body: form })
    const body = await readJson(response)

    expect(response.status).toBe(200)
    expect(body.fields).toEqual({ title: 'holiday' })
    expect(body.files).toEqual([
      { name: 'small.txt', type: 'text/plain', size: small.length, bytes: sha256(small), stream: sha256(small) },
      { name: 'middle.png', type: 'image/png', size: middle.length, bytes: sha256(middle), stream: sha256(middle) },
      { name: 'large.png', type: 'image/png', size: large.length, bytes: sha256(large), stream: sha256(large) },
    ])
    // 10 KiB + 600 KiB stay in memory; the 2 MiB file went to the request's folder.
    expect(body.uploadFolders).toEqual([['1']])
    expect(await foldersLeft()).toEqual([])
  })

  it('makes no temporary folder for small files', async () => {
    const form = new FormData()
    form.append('a', new Blob([bytesOf(512 * KiB)]), 'a.bin')
    form.append('b', new Blob([bytesOf(512 * KiB)]), 'b.bin')
    const body = await readJson(await server.fetch('/files', { method: 'POST', body: form }))
    expect(body.files.map((file: { size: number }) => file.size)).toEqual([512 * KiB, 512 * KiB])
    expect(body.uploadFolders).toEqual([])
  })

  it('keeps names and values in UTF-8, and takes a part without a file name for a field, whatever its type', async () => {
    // FormData gives every Blob a file name: the `raw` part, `application/octet-stream` without one, is written by hand.
    const part = (headers: string, value: string) => `--b\r\n${headers}\r\n\r\n${value}\r\n`
    const body = Buffer.from(
      part('Content-Disposition: form-data; name="caption"', 'Été à la mer 📷') +
        part('Content-Disposition: form-data; name="raw"\r\nContent-Type: application/octet-stream', 'not a file') +
        part('Content-Disposition: form-data; name="photo"; filename="été 📷.png"', 'x') +
        '--b--\r\n',
    )
    const response = await server.fetch('/files', { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=b' }, body })
    const parsed = await readJson(response)
    expect(parsed.fields).toEqual({ caption: 'Été à la mer 📷', raw: 'not a file' })
    expect(parsed.files.map((file: { name: string }) => file.name)).toEqual(['été 📷.png'])
  })

  it('keeps a long field name whole (busboy would cut it at 100 bytes)', async () => {
    const form = new FormData()
    form.append(`answers[${'q'.repeat(200)}]`, 'yes')
    const body = await readJson(await server.fetch('/files', { method: 'POST', body: form }))
    expect(body.fields).toEqual({ [`answers[${'q'.repeat(200)}]`]: 'yes' })
  })

  it('answers 413 to text fields past the body limit (they are held in memory), not to a file as large', async () => {
    const fields = new FormData()
    fields.append('essay', 'x'.repeat(65 * KiB))
    const tooLarge = await server.fetch('/files', { method: 'POST', body: fields })
    expect([tooLarge.status, await readJson(tooLarge)]).toEqual([413, { error: 'Payload Too Large' }])

    const file = new FormData()
    file.append('essay', new Blob(['x'.repeat(65 * KiB)]), 'essay.txt')
    const stored = await server.fetch('/files', { method: 'POST', body: file })
    expect(stored.status).toBe(200)
  })

  it('answers 413 to more than 1000 parts', async () => {
    const form = new FormData()
    for (let i = 0; i < 1001; i++) form.append('tags[]', 'x')
    const response = await server.fetch('/files', { method: 'POST', body: form })
    expect([response.status, await readJson(response)]).toEqual([413, { error: 'Payload Too Large' }])
  })

  it('answers 413 past the upload limit, and leaves no temporary file', async () => {
    const form = new FormData()
    form.append('big', new Blob([bytesOf(9 * MiB)]), 'big.bin')
    const response = await server.fetch('/files', { method: 'POST', body: form })
    expect([response.status, await readJson(response)]).toEqual([413, { error: 'Payload Too Large' }])
    expect(await foldersLeft()).toEqual([])
  })

  it('answers 400 to a body without a boundary or cut short, and leaves no temporary file', async () => {
    const noBoundary = await server.fetch('/files', { method: 'POST', headers: { 'Content-Type': 'multipart/form-data' }, body: 'anything' })
    expect([noBoundary.status, await readJson(noBoundary)]).toEqual([400, { error: 'Malformed multipart body' }])

    const head = '--cut\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n'
    const cut = await server.fetch('/files', {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=cut' },
      body: Buffer.concat([Buffer.from(head), bytesOf(2 * MiB)]),
    })
    expect([cut.status, await readJson(cut)]).toEqual([400, { error: 'Malformed multipart body' }])
    expect(await foldersLeft()).toEqual([])
  })

  it('answers 500 "The upload could not be saved" when the temporary folder cannot be written', async () => {
    process.env.TMPDIR = join(temp, 'missing', 'folder')
    try {
      const form = new FormData()
      form.append('big', new Blob([bytesOf(2 * MiB)]), 'big.bin')
      const response = await server.fetch('/files', { method: 'POST', body: form })
      expect([response.status, await readJson(response)]).toEqual([500, { error: 'The upload could not be saved' }])
    } finally {
      process.env.TMPDIR = temp
    }
    // The server still takes uploads.
    const form = new FormData()
    form.append('big', new Blob([bytesOf(2 * MiB)]), 'big.bin')
    expect((await server.fetch('/files', { method: 'POST', body: form })).status).toBe(200)
  })

  it('removes the temporary files when the handler fails', async () => {
    const form = new FormData()
    form.append('big', new Blob([bytesOf(2 * MiB)]), 'big.bin')
    const response = await server.fetch('/fails', { method: 'POST', body: form })
    expect(response.status).toBe(500)
    expect(await foldersLeft()).toEqual([])
  })
})
