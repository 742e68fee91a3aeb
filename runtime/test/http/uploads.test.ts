import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import { readJson, transports, type OpenApp } from '../support/servers.js'

// Bytes that are not valid UTF-8 must survive untouched.
const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28])
const storage = mkdtempSync(join(tmpdir(), 'fw-uploads-'))
afterAll(() => rmSync(storage, { recursive: true, force: true }))

describe.each(transports)('uploads and binary bodies on $name', ({ open: openApp }) => {
  let server: OpenApp

  beforeAll(async () => {
    const router = new Router(new Container())
    router.post('/photos', async (request) => {
      const photo = request.file('photo')
      if (!photo) return Response.error('No photo', 422)
      const saved = await photo.moveTo(join(storage, 'photos', `${request.input('title')}.png`))
      return Response.json({
        title: request.input('title'),
        tags: request.input('tags'),
        photo: { name: photo.name, type: photo.type, size: photo.size },
        saved,
        attachments: (request.files().attachments ?? []).map((file) => [file.name, file.text()]),
      }, 201)
    })
    router.post('/raw', (request) => Response.json({ hex: request.buffer().toString('hex'), length: request.buffer().length }))
    server = await openApp(router, { bodyLimit: 64 * 1024, uploadLimit: 64 * 1024 })
  })
  afterAll(() => server.close())

  it('parses multipart/form-data: fields, repeated fields, and files byte for byte', async () => {
    const form = new FormData()
    form.append('title', 'sunset')
    form.append('tags[]', 'sea')
    form.append('tags[]', 'sky')
    form.append('photo', new Blob([IMAGE], { type: 'image/png' }), 'sunset.png')
    form.append('attachments', new Blob(['first']), 'a.txt')
    form.append('attachments', new Blob(['second']), 'b.txt')
    const response = await server.fetch('/photos', { method: 'POST', body: form })
    const body = await readJson(response)
    expect(response.status).toBe(201)
    expect(body).toMatchObject({
      title: 'sunset',
      tags: ['sea', 'sky'],
      photo: { name: 'sunset.png', type: 'image/png', size: IMAGE.length },
      attachments: [['a.txt', 'first'], ['b.txt', 'second']],
    })
    expect(readFileSync(body.saved).equals(IMAGE)).toBe(true)
  })

  it('answers 413 to an upload over the upload limit, and 400 to a malformed multipart body', async () => {
    const big = new FormData()
    big.append('photo', new Blob([Buffer.alloc(100 * 1024, 1)]), 'big.bin')
    const tooLarge = await server.fetch('/photos', { method: 'POST', body: big })
    expect([tooLarge.status, await readJson(tooLarge)]).toEqual([413, { error: 'Payload Too Large' }])
    const malformed = await server.fetch('/photos', {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=abc' },
      body: '--abc\r\nnot a part at all',
    })
    expect([malformed.status, await readJson(malformed)]).toEqual([400, { error: 'Malformed multipart body' }])
  })

  it('keeps any other body as bytes', async () => {
    const response = await server.fetch('/raw', { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: IMAGE })
    expect(await readJson(response)).toEqual({ hex: IMAGE.toString('hex'), length: IMAGE.length })
  })
})
