import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StoredFile } from '../../src/storage/Disk.js'
import { FileNotFoundError } from '../../src/storage/FileNotFoundError.js'
import { LocalDisk } from '../../src/storage/LocalDisk.js'
import { InvalidKeyError } from '../../src/storage/storageKey.js'

let root: string
let disk: LocalDisk
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fw-local-disk-'))
  disk = new LocalDisk({ root })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80])

/** Every file a listing yields (Array.fromAsync is not in the project's lib). */
async function all(files: AsyncIterable<StoredFile>): Promise<StoredFile[]> {
  const found: StoredFile[] = []
  for await (const file of files) found.push(file)
  return found
}

async function keys(folder?: string, recursive?: boolean): Promise<string[]> {
  const found: string[] = []
  for await (const file of disk.list(folder, { recursive })) found.push(file.key)
  return found
}

describe('LocalDisk', () => {
  it('puts and gets text and bytes, private by default under <root>/private', async () => {
    await disk.put('notes/a.txt', 'héllo')
    await disk.put('images/1.png', BYTES, { visibility: 'public' })

    expect(await disk.get('notes/a.txt')).toBe('héllo')
    expect((await disk.getBytes('images/1.png')).equals(BYTES)).toBe(true)
    expect(readFileSync(join(root, 'private/notes/a.txt'), 'utf8')).toBe('héllo')
    expect(readFileSync(join(root, 'public/images/1.png')).equals(BYTES)).toBe(true)
    expect(await disk.getVisibility('notes/a.txt')).toBe('private')
    expect(await disk.getVisibility('images/1.png')).toBe('public')
  })

  it('replaces a file whole, leaving no temporary file behind', async () => {
    await disk.put('a.txt', 'first version, longer')
    await disk.put('a.txt', 'second')

    expect(await disk.get('a.txt')).toBe('second')
    expect(readdirSync(join(root, '.tmp'))).toEqual([])
  })

  it('writes atomically: a stream that fails midway leaves the old file as it was and no temporary file', async () => {
    await disk.put('report.csv', 'old,report\n')
    async function* failing(): AsyncIterable<Uint8Array> {
      yield Buffer.from('new,rep')
      throw new Error('the source broke')
    }

    await expect(disk.putStream('report.csv', failing())).rejects.toThrow('the source broke')

    expect(await disk.get('report.csv')).toBe('old,report\n')
    expect(readdirSync(join(root, '.tmp'))).toEqual([])
  })

  it('streams in and out: a Node stream, an async iterable and a web stream, of several megabytes', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x')
    await disk.putStream('big.bin', Readable.from((function* () { for (let i = 0; i < 96; i++) yield chunk })()))
    await disk.putStream('web.txt', new Blob(['from a web stream']).stream())

    expect(statSync(join(root, 'private/big.bin')).size).toBe(96 * 64 * 1024)
    let size = 0
    for await (const part of await disk.getStream('big.bin')) size += (part as Buffer).length
    expect(size).toBe(96 * 64 * 1024)
    expect(await text(await disk.getStream('web.txt'))).toBe('from a web stream')
  })

  it('says whether a file exists, deletes it, and deleting a missing file is not an error', async () => {
    await disk.put('a.txt', 'a')
    expect(await disk.exists('a.txt')).toBe(true)
    expect(await disk.exists('b.txt')).toBe(false)
    expect(await disk.exists('a.txt/inside')).toBe(false)

    await disk.delete('a.txt')
    await disk.delete('a.txt')

    expect(await disk.exists('a.txt')).toBe(false)
    expect(existsSync(join(root, 'private/a.txt'))).toBe(false)
  })

  it('copies and moves a file with its visibility', async () => {
    await disk.put('photos/a.png', BYTES, { visibility: 'public' })

    await disk.copy('photos/a.png', 'photos/b.png')
    await disk.move('photos/a.png', 'archive/2026/a.png')

    expect(await disk.exists('photos/a.png')).toBe(false)
    expect((await disk.getBytes('photos/b.png')).equals(BYTES)).toBe(true)
    expect((await disk.getBytes('archive/2026/a.png')).equals(BYTES)).toBe(true)
    expect(await disk.getVisibility('photos/b.png')).toBe('public')
    expect(await disk.getVisibility('archive/2026/a.png')).toBe('public')
  })

  it('moves over a file of the other visibility, leaving one file under the key', async () => {
    await disk.put('a.txt', 'public one', { visibility: 'public' })
    await disk.put('b.txt', 'private one')

    await disk.move('a.txt', 'b.txt')

    expect(await disk.get('b.txt')).toBe('public one')
    expect(await disk.getVisibility('b.txt')).toBe('public')
    expect(existsSync(join(root, 'private/b.txt'))).toBe(false)
  })

  it('lists a folder, or everything below it, sorted by key, with sizes and times, across both visibilities', async () => {
    const before = Date.now() - 1000
    await disk.put('top.txt', 'top')
    await disk.put('avatars/b.png', 'bb', { visibility: 'public' })
    await disk.put('avatars/a.png', 'a')
    await disk.put('avatars/2026/c.png', 'ccc', { visibility: 'public' })
    await disk.put('avatarsX/d.png', 'd')

    expect(await keys('avatars')).toEqual(['avatars/a.png', 'avatars/b.png'])
    expect(await keys('avatars/')).toEqual(['avatars/a.png', 'avatars/b.png'])
    expect(await keys('avatars', true)).toEqual(['avatars/2026/c.png', 'avatars/a.png', 'avatars/b.png'])
    expect(await keys('')).toEqual(['top.txt'])
    expect(await keys('', true)).toEqual(['avatars/2026/c.png', 'avatars/a.png', 'avatars/b.png', 'avatarsX/d.png', 'top.txt'])
    expect(await keys('nothing/here', true)).toEqual([])
    const [file] = await all(disk.list('avatars/2026'))
    expect(file).toEqual({ key: 'avatars/2026/c.png', size: 3, lastModified: expect.any(Date) })
    expect(file!.lastModified.getTime()).toBeGreaterThan(before)
  })

  it('changes visibility by moving the file between <root>/public and <root>/private', async () => {
    await disk.put('doc.pdf', 'pdf')

    await disk.setVisibility('doc.pdf', 'public')
    expect(await disk.getVisibility('doc.pdf')).toBe('public')
    expect(readFileSync(join(root, 'public/doc.pdf'), 'utf8')).toBe('pdf')
    expect(existsSync(join(root, 'private/doc.pdf'))).toBe(false)

    await disk.setVisibility('doc.pdf', 'private')
    expect(await disk.getVisibility('doc.pdf')).toBe('private')
    expect(existsSync(join(root, 'public/doc.pdf'))).toBe(false)
  })

  it('puts with another visibility over an existing file, leaving one file under the key', async () => {
    await disk.put('a.txt', 'private')
    await disk.put('a.txt', 'public', { visibility: 'public' })

    expect(await disk.get('a.txt')).toBe('public')
    expect(existsSync(join(root, 'private/a.txt'))).toBe(false)
  })

  it('gives public URLs under /storage, each name encoded; a signed one needs APP_KEY', async () => {
    expect(disk.url('avatars/1.png')).toBe('/storage/avatars/1.png')
    expect(disk.url('a b/ü?#.png')).toBe('/storage/a%20b/%C3%BC%3F%23.png')
    expect(new LocalDisk({ root, url: 'https://cdn.example.com/files/' }).url('x.png')).toBe('https://cdn.example.com/files/x.png')
    const appKey = process.env.APP_KEY
    delete process.env.APP_KEY
    try {
      await expect(disk.signedUrl('a.txt', { expiresIn: 60 })).rejects.toThrow('APP_KEY is not set: signed links need')
    } finally {
      if (appKey !== undefined) process.env.APP_KEY = appKey
    }
  })

  it('throws FileNotFoundError (a 404) for every read of a missing file', async () => {
    for (const read of [
      () => disk.get('missing.txt'),
      () => disk.getBytes('missing.txt'),
      () => disk.getStream('missing.txt'),
      () => disk.copy('missing.txt', 'b.txt'),
      () => disk.move('missing.txt', 'b.txt'),
      () => disk.getVisibility('missing.txt'),
      () => disk.setVisibility('missing.txt', 'public'),
    ]) {
      const error = await read().then(() => undefined, (caught: unknown) => caught)
      expect(error).toBeInstanceOf(FileNotFoundError)
      expect(error).toMatchObject({ status: 404, message: 'File not found', key: 'missing.txt', disk: 'local' })
    }
    expect(String(new FileNotFoundError('local', 'missing.txt'))).toBe('FileNotFoundError: no file "missing.txt" on the local disk')
  })

  it('refuses keys that could leave the disk, with the rule in the message, before touching the file system', async () => {
    writeFileSync(join(root, 'secret'), 'outside')
    const cases: [string, string][] = [
      ['../secret', 'contains ".."'],
      ['a/../../secret', 'contains ".."'],
      ['/etc/passwd', 'it is absolute'],
      ['a\\..\\secret', 'backslash'],
      ['a\0.txt', 'NUL'],
      ['a//b', 'empty or "."'],
      ['./a', 'empty or "."'],
      ['', 'non-empty'],
    ]
    for (const [key, reason] of cases) {
      for (const call of [() => disk.get(key), () => disk.put(key, 'x'), () => disk.delete(key), () => disk.exists(key), () => disk.copy('a', key)]) {
        const error = await call().then(() => undefined, (caught: unknown) => caught)
        expect(error, key).toBeInstanceOf(InvalidKeyError)
        expect((error as Error).message, key).toContain(reason)
      }
    }
    expect(() => disk.url('../x')).toThrow(InvalidKeyError)
    await expect(all(disk.list('../'))).rejects.toThrow(InvalidKeyError)
    expect(readFileSync(join(root, 'secret'), 'utf8')).toBe('outside')
  })
})
