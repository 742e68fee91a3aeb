import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LocalDisk } from '../../src/storage/LocalDisk.js'
import { S3Disk } from '../../src/storage/S3Disk.js'
import { storage } from '../../src/storage/storage.js'

const saved = { ...process.env }
const folders: string[] = []
afterEach(() => {
  storage.reset()
  for (const name of ['FILESYSTEM_DISK', 'AWS_BUCKET', 'AWS_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
    if (saved[name] === undefined) delete process.env[name]
    else process.env[name] = saved[name]
  }
  folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true }))
})

describe('storage()', () => {
  it('is the local disk under the app\'s storage/app by default, made once', () => {
    delete process.env.FILESYSTEM_DISK

    const disk = storage()

    expect(disk).toBeInstanceOf(LocalDisk)
    expect((disk as LocalDisk).root).toBe(join(process.cwd(), 'storage/app'))
    expect(storage()).toBe(disk)
    expect(storage.disk('local')).toBe(disk)
  })

  it('is the disk FILESYSTEM_DISK names, the s3 one configured from AWS_*, and says which setting is missing', () => {
    process.env.FILESYSTEM_DISK = 's3'
    delete process.env.AWS_BUCKET
    expect(() => storage()).toThrow('The s3 disk needs AWS_BUCKET')

    process.env.AWS_BUCKET = 'photos'
    expect(storage()).toBeInstanceOf(S3Disk)
    expect(storage().url('a.png')).toBe('https://photos.s3.us-east-1.amazonaws.com/a.png')
  })

  it('names the disks there are when asked for another', () => {
    storage.register(new LocalDisk({ root: '/tmp/x', name: 'exports' }))
    expect(() => storage.disk('backups')).toThrow('No storage disk named "backups": the disks are local, s3, exports')
    process.env.FILESYSTEM_DISK = 'backup'
    expect(() => storage()).toThrow('No storage disk named "backup"')
  })

  it('fakes a disk with a local one in a temporary folder, until reset', async () => {
    process.env.FILESYSTEM_DISK = 's3'
    delete process.env.AWS_BUCKET
    const fake = storage.fake()
    folders.push(fake.root)

    await storage().put('exports/a.csv', 'a,b')
    await storage.disk('s3').copy('exports/a.csv', 'exports/b.csv')

    expect(fake.name).toBe('s3')
    expect(fake.root.startsWith(tmpdir())).toBe(true)
    expect(await fake.get('exports/b.csv')).toBe('a,b')
    expect(storage.fake('local')).not.toBe(fake)
    const localFake = (storage.disk('local') as LocalDisk).root
    storage.reset()
    expect(() => storage()).toThrow('The s3 disk needs AWS_BUCKET')
    expect([existsSync(fake.root), existsSync(localFake)], 'the fakes\' folders after reset').toEqual([false, false])
  })

  it('uses a disk given to register, until reset', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fw-storage-'))
    folders.push(root)
    storage.register(new LocalDisk({ root }))

    await storage().put('a.txt', 'here')

    expect(await new LocalDisk({ root }).get('a.txt')).toBe('here')
    storage.reset()
    expect((storage() as LocalDisk).root).toBe(join(process.cwd(), 'storage/app'))
  })
})
