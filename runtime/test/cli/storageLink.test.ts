import { lstatSync, mkdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Router } from '../../src/routing/Router.js'
import { serve } from '../../src/server/serve.js'
import { LocalDisk } from '../../src/storage/LocalDisk.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

describe('fw storage:link', () => {
  it('links public/storage to storage/app/public, and the app then serves the local disk\'s public files at their url()', async () => {
    const result = await app.fw(['storage:link'])

    expect(result).toEqual({ code: 0, stdout: 'Linked public/storage to storage/app/public.\n', stderr: '' })
    expect(lstatSync(join(app.dir, 'public/storage')).isSymbolicLink()).toBe(true)
    expect(readlinkSync(join(app.dir, 'public/storage'))).toBe('../storage/app/public')

    const disk = new LocalDisk({ root: join(app.dir, 'storage/app') })
    await disk.put('avatars/1.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), { visibility: 'public' })
    await disk.put('secret.txt', 'private')
    const router = new Router(new Container()).publicFiles(join(app.dir, 'public'))
    const server = await serve(router, { port: 0, host: '127.0.0.1', handleSignals: false })
    try {
      const served = await fetch(`${server.url}${disk.url('avatars/1.png')}`)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/png')
      expect(Buffer.from(await served.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
      expect((await fetch(`${server.url}/storage/secret.txt`)).status).toBe(404)
      expect((await fetch(`${server.url}/storage/../private/secret.txt`)).status).toBe(404)
    } finally {
      await server.close()
    }
  })

  it('changes nothing when the link is there already', async () => {
    await app.fw(['storage:link'])

    const again = await app.fw(['storage:link'])

    expect(again).toEqual({ code: 0, stdout: 'public/storage already links to storage/app/public: nothing to do.\n', stderr: '' })
    expect(readlinkSync(join(app.dir, 'public/storage'))).toBe('../storage/app/public')
  })

  it('leaves a folder, a file or another link at public/storage alone, with exit 1 and one line saying what is there', async () => {
    mkdirSync(join(app.dir, 'public/storage/old'), { recursive: true })
    expect(await app.fw(['storage:link'])).toEqual({ code: 1, stdout: '', stderr: 'public/storage is already a folder: move it away, then run fw storage:link again\n' })
    expect(lstatSync(join(app.dir, 'public/storage/old')).isDirectory()).toBe(true)

    app.remove()
    app = createFwApp()
    app.write('public/storage', 'a file')
    expect(await app.fw(['storage:link'])).toMatchObject({ code: 1, stderr: 'public/storage is already a file: move it away, then run fw storage:link again\n' })
    expect(app.read('public/storage')).toBe('a file')

    app.remove()
    app = createFwApp()
    mkdirSync(join(app.dir, 'elsewhere'))
    mkdirSync(join(app.dir, 'public'), { recursive: true })
    symlinkSync('../elsewhere', join(app.dir, 'public/storage'))
    expect(await app.fw(['storage:link'])).toMatchObject({ code: 1, stderr: 'public/storage is already a link to ../elsewhere: move it away, then run fw storage:link again\n' })
    expect(readlinkSync(join(app.dir, 'public/storage'))).toBe('../elsewhere')
  })

  it('fails with exit 1 and one line when the link cannot be made', async () => {
    writeFileSync(join(app.dir, 'storage'), 'a file where the storage folder should be')

    const result = await app.fw(['storage:link'])

    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^Could not link public\/storage to storage\/app\/public: .+\n$/)
  })
})
