import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { UploadedFile } from '../../src/http/UploadedFile.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { LocalDisk } from '../../src/storage/LocalDisk.js'
import { S3Disk } from '../../src/storage/S3Disk.js'
import { storage } from '../../src/storage/storage.js'
import { startS3Server, withS3rverListFix, type S3Server } from '../support/s3Server.js'
import { listenOn, readJson, servers } from '../support/servers.js'

// Bytes that are not valid UTF-8 must be stored untouched.
const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28])
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

let root: string
let s3: S3Server
const defaultDisk = process.env.FILESYSTEM_DISK

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'fw-store-'))
  s3 = await startS3Server()
  const bucket = new S3Disk(s3.options)
  withS3rverListFix(bucket.client)
  storage.register(new LocalDisk({ root }))
  storage.register(bucket)
})
afterAll(async () => {
  storage.reset()
  if (defaultDisk === undefined) delete process.env.FILESYSTEM_DISK
  else process.env.FILESYSTEM_DISK = defaultDisk
  await s3.close()
  rmSync(root, { recursive: true, force: true })
})

function photoForm(name = 'sunset.PNG'): FormData {
  const form = new FormData()
  form.append('photo', new Blob([IMAGE], { type: 'image/png' }), name)
  return form
}

describe.each(servers)('UploadedFile.store over $name', ({ start }) => {
  let server: RunningServer

  beforeAll(async () => {
    const router = new Router(new Container())
    router.post('/photos', async (request) => {
      const disk = request.input('disk') as string | undefined
      const name = request.input('name') as string | undefined
      const key = await request.file('photo')!.store('photos/2026', { ...(disk ? { disk } : {}), ...(name ? { name } : {}), visibility: 'public' })
      return Response.json({ key }, 201)
    })
    router.get('/download', async (request) => {
      const disk = storage.disk(request.input('disk') as string)
      // Response takes no bytes yet: the file comes back as base64 in JSON.
      return Response.json({ base64: (await disk.getBytes(request.input('key') as string)).toString('base64') })
    })
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it.each(['local', 's3'])('stores a multipart upload on the %s disk under the folder, a random name and its extension', async (disk) => {
    const response = await fetch(`${server.url}/photos?disk=${disk}`, { method: 'POST', body: photoForm() })

    expect(response.status).toBe(201)
    const { key } = await readJson(response)
    expect(key).toMatch(new RegExp(`^photos/2026/${UUID}\\.png$`))
    expect((await storage.disk(disk).getBytes(key)).equals(IMAGE)).toBe(true)
    expect(await storage.disk(disk).getVisibility(key)).toBe(disk === 'local' ? 'public' : 'private') // s3rver keeps no ACLs
    const download = await fetch(`${server.url}/download?disk=${disk}&key=${encodeURIComponent(key)}`)
    expect(Buffer.from((await readJson(download)).base64, 'base64').equals(IMAGE)).toBe(true)
  })

  it('stores on the disk FILESYSTEM_DISK names by default, under a name given, and refuses a name that leaves the folder', async () => {
    process.env.FILESYSTEM_DISK = 's3'
    const stored = await fetch(`${server.url}/photos?name=cover.png`, { method: 'POST', body: photoForm() })
    expect(await readJson(stored)).toEqual({ key: 'photos/2026/cover.png' })
    expect((await storage.disk('s3').getBytes('photos/2026/cover.png')).equals(IMAGE)).toBe(true)
    expect(await storage.disk('local').exists('photos/2026/cover.png')).toBe(false)

    process.env.FILESYSTEM_DISK = 'local'
    const escaping = await fetch(`${server.url}/photos?name=../../escape.png`, { method: 'POST', body: photoForm() })
    expect(escaping.status).toBe(500)
    expect(() => readFileSync(join(root, 'escape.png'))).toThrow()
  })

  it('leaves out an extension that is not letters and digits', async () => {
    const response = await fetch(`${server.url}/photos?disk=local`, { method: 'POST', body: photoForm('evil.ph p') })
    expect((await readJson(response)).key).toMatch(new RegExp(`^photos/2026/${UUID}$`))
  })

  it('answers 404 "File not found" when a missing file reaches the router', async () => {
    for (const disk of ['local', 's3']) {
      const response = await fetch(`${server.url}/download?disk=${disk}&key=photos/none.png`)
      expect(response.status).toBe(404)
      expect(await readJson(response)).toEqual({ error: 'File not found' })
    }
  })
})

describe('an UploadedFile on disk (a large upload, in its temporary file)', () => {
  const folder = () => mkdtempSync(join(root, 'on-disk-'))

  it('moveTo renames the temporary file once, then copies from where it went; bytes(), stream() and store() follow it', async () => {
    const here = folder()
    const temporary = join(here, 'upload-1')
    writeFileSync(temporary, IMAGE)
    const file = new UploadedFile('photo.png', 'image/png', { path: temporary, size: IMAGE.length })

    const first = await file.moveTo(join(here, 'a', 'photo.png'))
    expect(existsSync(temporary)).toBe(false)
    const second = await file.moveTo(join(here, 'b', 'photo.png'))
    expect(readFileSync(first).equals(IMAGE) && readFileSync(second).equals(IMAGE)).toBe(true)

    expect(file.bytes().equals(IMAGE)).toBe(true)
    const streamed: Buffer[] = []
    for await (const chunk of file.stream()) streamed.push(chunk as Buffer)
    expect(Buffer.concat(streamed).equals(IMAGE)).toBe(true)
    const key = await file.store('photos', { disk: 'local' })
    expect((await storage.disk('local').getBytes(key)).equals(IMAGE)).toBe(true)
  })

  it('keeps the name, type and size it was given', () => {
    const file = new UploadedFile('report.pdf', '', { path: '/nowhere', size: 12 })
    expect([file.name, file.type, file.size]).toEqual(['report.pdf', 'application/octet-stream', 12])
  })
})
