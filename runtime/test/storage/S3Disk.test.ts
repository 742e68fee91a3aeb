import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { StoredFile } from '../../src/storage/Disk.js'
import { FileNotFoundError } from '../../src/storage/FileNotFoundError.js'
import { S3Disk } from '../../src/storage/S3Disk.js'
import { InvalidKeyError } from '../../src/storage/storageKey.js'
import { startS3Server, withS3rverListFix, type S3Server } from '../support/s3Server.js'

let s3: S3Server
let disk: S3Disk
/** Every request the disk's client sent: method, path, query and headers, as signed. */
let sent: { method: string; path: string; query: Record<string, unknown>; headers: Record<string, string> }[] = []

beforeAll(async () => {
  s3 = await startS3Server()
  disk = new S3Disk(s3.options)
  withS3rverListFix(disk.client)
  disk.client.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { method: string; path: string; query: Record<string, unknown>; headers: Record<string, string> }
      sent.push({ method: request.method, path: request.path, query: { ...request.query }, headers: { ...request.headers } })
      return next(args)
    },
    { step: 'finalizeRequest', name: 'fwRecordRequests' },
  )
})
afterAll(() => s3.close())
beforeEach(() => {
  sent = []
})

const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80])

/** Every file a listing yields (Array.fromAsync is not in the project's lib). */
async function all(files: AsyncIterable<StoredFile>): Promise<StoredFile[]> {
  const found: StoredFile[] = []
  for await (const file of files) found.push(file)
  return found
}

async function keys(folder?: string, recursive?: boolean): Promise<string[]> {
  return (await all(disk.list(folder, { recursive }))).map((file) => file.key)
}

describe('S3Disk on a real S3-compatible server (s3rver)', () => {
  it('puts and gets text and bytes, with the content type and ACL it was given', async () => {
    await disk.put('notes/a.txt', 'héllo')
    await disk.put('images/1.png', BYTES, { visibility: 'public', contentType: 'image/png' })

    expect(await disk.get('notes/a.txt')).toBe('héllo')
    expect((await disk.getBytes('images/1.png')).equals(BYTES)).toBe(true)
    const puts = sent.filter((request) => request.method === 'PUT')
    expect(puts[0]!.headers['x-amz-acl']).toBeUndefined()
    expect(puts[1]!.headers).toMatchObject({ 'x-amz-acl': 'public-read', 'content-type': 'image/png' })
    const served = await fetch(disk.url('images/1.png'))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await served.arrayBuffer()).equals(BYTES)).toBe(true)
  })

  it('stores a stream of unknown length over 5 MiB in parts, byte for byte, and streams it back', async () => {
    const chunk = Buffer.alloc(100_000)
    for (let i = 0; i < chunk.length; i++) chunk[i] = i % 251
    const chunks = 70 // 7 MB: two parts
    await disk.putStream('exports/big.bin', Readable.from((function* () { for (let i = 0; i < chunks; i++) yield chunk })()))

    expect(sent.some((request) => request.method === 'POST' && 'uploads' in request.query)).toBe(true)
    expect(sent.filter((request) => request.method === 'PUT' && 'partNumber' in request.query)).toHaveLength(2)
    let size = 0
    let same = true
    for await (const part of await disk.getStream('exports/big.bin')) {
      const bytes = part as Buffer
      for (let i = 0; i < bytes.length && same; i++) same = bytes[i] === (size + i) % 100_000 % 251
      size += bytes.length
    }
    expect(size).toBe(chunks * chunk.length)
    expect(same).toBe(true)
  })

  it('stores a stream of known length over 5 MiB in one PutObject, as it is read', async () => {
    const chunk = Buffer.alloc(100_000)
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 7) % 251
    const chunks = 70 // 7 MB, as an upload on disk: UploadedFile.store gives its size
    const source = Readable.from((function* () { for (let i = 0; i < chunks; i++) yield chunk })())
    await disk.putStream('uploads/known.bin', source, { contentLength: chunks * chunk.length, contentType: 'application/pdf' })

    expect(sent.map((request) => [request.method, request.headers['content-length']])).toEqual([['PUT', String(chunks * chunk.length)]])
    expect(sent[0]!.headers['content-type']).toBe('application/pdf')
    const stored = await disk.getBytes('uploads/known.bin')
    expect(stored.equals(Buffer.concat(Array(chunks).fill(chunk)))).toBe(true)
  })

  it("turns off the SDK's default checksums on an S3-compatible endpoint: a raw stream body is stored as sent", async () => {
    // Since 2025 the SDK frames a stream body as aws-chunked with a trailing CRC32 unless told WHEN_REQUIRED; S3-compatible
    // servers store the framing as part of the file, or refuse it (s3rver: 400). Store-from-a-temporary-file relies on this.
    const { PutObjectCommand } = await import('@aws-sdk/client-s3')
    const body = Buffer.alloc(200_000, 7)
    await disk.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'raw.bin', Body: Readable.from([body]), ContentLength: body.length }))

    expect((await disk.getBytes('raw.bin')).equals(body)).toBe(true)
    expect(await disk.client.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED')
  })

  it('stores a small stream, an async iterable and a web stream', async () => {
    async function* lines(): AsyncIterable<Uint8Array> {
      yield Buffer.from('a,b\n')
      yield Buffer.from('1,2\n')
    }
    await disk.putStream('small.csv', lines(), { contentType: 'text/csv' })
    await disk.putStream('web.txt', new Blob(['from a web stream']).stream())

    expect(await disk.get('small.csv')).toBe('a,b\n1,2\n')
    expect(await text(await disk.getStream('web.txt'))).toBe('from a web stream')
  })

  it('says whether a file exists, and deletes it (a missing one too)', async () => {
    await disk.put('a.txt', 'a')
    expect(await disk.exists('a.txt')).toBe(true)
    expect(await disk.exists('b.txt')).toBe(false)

    await disk.delete('a.txt')
    await disk.delete('a.txt')

    expect(await disk.exists('a.txt')).toBe(false)
  })

  it('copies and moves a file, keeping the ACL the source has', async () => {
    await disk.put('photos/a.png', BYTES)

    await disk.copy('photos/a.png', 'photos/b.png')
    sent = []
    await disk.move('photos/b.png', 'archive/2026/b b.png')

    expect(await disk.exists('photos/b.png')).toBe(false)
    expect((await disk.getBytes('archive/2026/b b.png')).equals(BYTES)).toBe(true)
    expect((await disk.getBytes('photos/a.png')).equals(BYTES)).toBe(true)
    const copy = sent.find((request) => request.headers['x-amz-copy-source'] !== undefined)!
    expect(copy.headers).toMatchObject({ 'x-amz-copy-source': `${s3.bucket}/photos/b.png`, 'x-amz-acl': 'private' })

    // S3 refuses to copy an object onto itself unchanged: the disk does not ask it to.
    await disk.copy('photos/a.png', 'photos/a.png')
    await disk.move('photos/a.png', 'photos/a.png')
    expect((await disk.getBytes('photos/a.png')).equals(BYTES)).toBe(true)
    await expect(disk.copy('photos/none.png', 'photos/none.png')).rejects.toBeInstanceOf(FileNotFoundError)
  })

  it('lists a folder, or everything below it, sorted by key, with sizes and times', async () => {
    const bucket = new S3Disk({ ...s3.options, bucket: 'fw-list' })
    withS3rverListFix(bucket.client)
    await bucket.client.send(new (await import('@aws-sdk/client-s3')).CreateBucketCommand({ Bucket: 'fw-list' }))
    await bucket.put('top.txt', 'top')
    await bucket.put('avatars/b.png', 'bb')
    await bucket.put('avatars/a.png', 'a')
    await bucket.put('avatars/2026/c.png', 'ccc')
    await bucket.put('avatarsX/d.png', 'd')
    const list = async (folder?: string, recursive?: boolean) => (await all(bucket.list(folder, { recursive }))).map((file) => file.key)

    expect(await list('avatars')).toEqual(['avatars/a.png', 'avatars/b.png'])
    expect(await list('avatars/')).toEqual(['avatars/a.png', 'avatars/b.png'])
    expect(await list('avatars', true)).toEqual(['avatars/2026/c.png', 'avatars/a.png', 'avatars/b.png'])
    expect(await list('')).toEqual(['top.txt'])
    expect(await list('', true)).toEqual(['avatars/2026/c.png', 'avatars/a.png', 'avatars/b.png', 'avatarsX/d.png', 'top.txt'])
    expect(await list('nothing', true)).toEqual([])
    expect(await all(bucket.list('avatars/2026'))).toEqual([{ key: 'avatars/2026/c.png', size: 3, lastModified: expect.any(Date) }])
  })

  it('gives a signed link that downloads a private file over HTTP until it expires, and not once changed', async () => {
    await disk.put('reports/q3.csv', 'a,b\n1,2\n', { contentType: 'text/csv' })

    const link = await disk.signedUrl('reports/q3.csv', { expiresIn: 2, contentDisposition: 'attachment; filename="q3.csv"' })
    const response = await fetch(link)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('a,b\n1,2\n')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="q3.csv"')

    const tampered = new URL(link)
    tampered.pathname = tampered.pathname.replace('q3.csv', 'q4.csv')
    expect((await fetch(tampered)).status).toBe(403)
    const longer = new URL(link)
    longer.searchParams.set('X-Amz-Expires', '3600')
    expect((await fetch(longer)).status).toBe(403)

    await sleep(3000)
    expect((await fetch(link)).status).toBe(403)
    await expect(disk.signedUrl('reports/q3.csv', { expiresIn: 0 })).rejects.toThrow('expiresIn is a whole number of seconds from 1 to 604800')
  })

  it('builds public URLs: path style on an endpoint, virtual host on one, AWS, and AWS_URL', () => {
    expect(disk.url('a b/ü.png')).toBe(`${s3.endpoint}/${s3.bucket}/a%20b/%C3%BC.png`)
    expect(new S3Disk({ ...s3.options, forcePathStyle: false, endpoint: 'https://r2.example.com' }).url('x.png')).toBe('https://fw-test.r2.example.com/x.png')
    expect(new S3Disk({ bucket: 'photos', region: 'eu-west-1' }).url('x.png')).toBe('https://photos.s3.eu-west-1.amazonaws.com/x.png')
    expect(new S3Disk({ ...s3.options, url: 'https://cdn.example.com/' }).url('x.png')).toBe('https://cdn.example.com/x.png')
  })

  it('sends the visibility as the object ACL, reads it from the ACL, and refuses it when ACLs are off', async () => {
    await disk.put('v.txt', 'v')
    expect(await disk.getVisibility('v.txt')).toBe('private')
    // s3rver does not implement PutObjectAcl: what is proven here is the request the disk sent.
    await expect(disk.setVisibility('v.txt', 'public')).rejects.toThrow(/not implemented/i)
    expect(sent.at(-1)).toMatchObject({ method: 'PUT', query: { acl: '' }, headers: { 'x-amz-acl': 'public-read' } })

    const noAcl = new S3Disk({ ...s3.options, acl: false })
    await expect(noAcl.setVisibility('v.txt', 'public')).rejects.toThrow('setVisibility needs object ACLs, and the s3 disk has them off (AWS_ACL=false)')
    await expect(noAcl.put('w.txt', 'w', { visibility: 'public' })).rejects.toThrow('AWS_ACL=false')
    await noAcl.copy('v.txt', 'w.txt')
    expect(await noAcl.get('w.txt')).toBe('v')
  })

  it('throws FileNotFoundError (a 404) for every read of a missing file, and InvalidKeyError before any request', async () => {
    for (const read of [
      () => disk.get('missing.txt'),
      () => disk.getBytes('missing.txt'),
      () => disk.getStream('missing.txt'),
      () => disk.copy('missing.txt', 'b.txt'),
      () => disk.move('missing.txt', 'b.txt'),
    ]) {
      const error = await read().then(() => undefined, (caught: unknown) => caught)
      expect(error).toBeInstanceOf(FileNotFoundError)
      expect(error).toMatchObject({ status: 404, key: 'missing.txt', disk: 's3' })
    }
    sent = []
    await expect(disk.put('../x', 'x')).rejects.toThrow(InvalidKeyError)
    await expect(disk.copy('a.txt', '/etc/passwd')).rejects.toThrow(InvalidKeyError)
    expect(sent).toEqual([])
  })

  it('says which setting is wrong: a bucket that does not exist, or keys the server refuses', async () => {
    const noBucket = new S3Disk({ ...s3.options, bucket: 'no-such-bucket' })
    await expect(noBucket.put('a.txt', 'a')).rejects.toThrow('The s3 disk\'s bucket "no-such-bucket" does not exist (AWS_BUCKET)')
    const wrongSecret = new S3Disk({ ...s3.options, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'wrong' } })
    await expect(wrongSecret.put('a.txt', 'a')).rejects.toThrow("The s3 disk's credentials were refused (SignatureDoesNotMatch): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
  })

  it('ping: one HeadBucket; a missing bucket, refused keys and a server that never answers each say why, within the deadline', async () => {
    await disk.ping(2000)
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([`HEAD /${s3.bucket}`])
    const noBucket = new S3Disk({ ...s3.options, bucket: 'no-such-bucket' })
    withS3rverListFix(noBucket.client)
    await expect(noBucket.ping(2000)).rejects.toThrow('The s3 disk\'s bucket "no-such-bucket" does not exist (AWS_BUCKET)')
    const wrongSecret = new S3Disk({ ...s3.options, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'wrong' } })
    withS3rverListFix(wrongSecret.client)
    await expect(wrongSecret.ping(2000)).rejects.toThrow('The s3 disk may not use its bucket "fw-test" (403): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY')

    // A server that takes the connection and never answers.
    const silent = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const hung = new S3Disk({ ...s3.options, endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` })
      const started = Date.now()
      await expect(hung.ping(300)).rejects.toThrow('The s3 disk\'s bucket "fw-test" did not answer within 300 ms')
      expect(Date.now() - started).toBeLessThan(1500)
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })
})
