import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { LocalDisk } from '../../src/storage/LocalDisk.js'
import { storage } from '../../src/storage/storage.js'
import { listenOn, readJson, servers } from '../support/servers.js'

const PDF = Buffer.from('%PDF-1.7 not really\n\x00\xff')
const saved = { APP_KEY: process.env.APP_KEY, APP_URL: process.env.APP_URL }
let root: string
let disk: LocalDisk

beforeAll(async () => {
  process.env.APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`
  delete process.env.APP_URL
  root = mkdtempSync(join(tmpdir(), 'fw-signed-files-'))
  disk = new LocalDisk({ root })
  storage.register(disk)
  await disk.put('invoices/42 final.pdf', PDF)
  await disk.put('avatars/1.png', 'png', { visibility: 'public' })
})
afterAll(() => {
  storage.reset()
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  rmSync(root, { recursive: true, force: true })
})

describe.each(servers)('signed links of the local disk on $name', ({ start }) => {
  let server: RunningServer
  beforeAll(async () => {
    const router = new Router(new Container()).publicFiles(false)
    router.get('/storage/reports', () => ({ route: 'a route of the app' }))
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it('serves a private file through its signed link until it expires, with the Content-Disposition it was given', async () => {
    const link = await disk.signedUrl('invoices/42 final.pdf', { expiresIn: 2, contentDisposition: 'attachment; filename="42.pdf"' })
    expect(link).toMatch(/^\/storage\/invoices\/42%20final\.pdf\?response-content-disposition=attachment%3B[^&]+&expires=\d+&signature=[0-9a-f]{64}$/)

    const response = await fetch(`${server.url}${link}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="42.pdf"')
    expect(response.headers.get('cache-control')).toBe('private, max-age=0')
    expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true)
    const head = await fetch(`${server.url}${link}`, { method: 'HEAD' })
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(PDF.length)])

    await sleep(2100)
    const expired = await fetch(`${server.url}${link}`)
    expect(expired.status).toBe(403)
    expect(await readJson(expired)).toEqual({ error: 'This link has expired.' })
  })

  it('answers 403 to a changed link or one without a signature, and 404 once the file is gone', async () => {
    const link = await disk.signedUrl('invoices/42 final.pdf', { expiresIn: 60 })
    for (const changed of [link.replace('42%20final', '43%20final'), link.replace(/expires=\d+/, 'expires=9999999999'), `${link.replace(/&signature=.*/, '')}&signature=${'0'.repeat(64)}`]) {
      const response = await fetch(`${server.url}${changed}`)
      expect(response.status, changed).toBe(403)
      expect(await readJson(response)).toEqual({ error: 'Invalid signature.' })
    }
    expect((await fetch(`${server.url}/storage/invoices/42%20final.pdf`)).status).toBe(404)

    await disk.put('gone.txt', 'soon gone')
    const gone = await disk.signedUrl('gone.txt', { expiresIn: 60 })
    await disk.delete('gone.txt')
    const response = await fetch(`${server.url}${gone}`)
    expect(response.status).toBe(404)
    expect(await readJson(response)).toEqual({ error: 'File not found' })
  })

  it('serves a public file by its signed link too, and leaves the app\'s own routes alone', async () => {
    const link = await disk.signedUrl('avatars/1.png', { expiresIn: 60 })
    const response = await fetch(`${server.url}${link}`)
    expect([response.status, await response.text()]).toEqual([200, 'png'])
    expect(await readJson(await fetch(`${server.url}/storage/reports?signature=x`))).toEqual({ route: 'a route of the app' })
  })
})

describe('LocalDisk.signedUrl', () => {
  it('is absolute on APP_URL when it is set, and refuses an expiry that is not a whole number of seconds', async () => {
    process.env.APP_URL = 'https://shop.example.com/'
    try {
      expect(await disk.signedUrl('a.txt', { expiresIn: 60 })).toMatch(/^https:\/\/shop\.example\.com\/storage\/a\.txt\?expires=\d+&signature=[0-9a-f]{64}$/)
    } finally {
      delete process.env.APP_URL
    }
    await expect(disk.signedUrl('a.txt', { expiresIn: 0 })).rejects.toThrow('expiresIn is a whole number of seconds from 1, not 0')
    await expect(disk.signedUrl('../a.txt', { expiresIn: 60 })).rejects.toThrow('Invalid storage key')
  })
})
