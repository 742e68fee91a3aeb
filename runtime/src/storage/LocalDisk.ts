import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream, type Stats } from 'node:fs'
import { mkdir, open, opendir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { UrlSigner } from '../routing/UrlSigner.js'
import type { Disk, ListOptions, PutOptions, SignedUrlOptions, StoredFile, StreamSource, Visibility } from './Disk.js'
import { FileNotFoundError } from './FileNotFoundError.js'
import { storageFolder, storageKey } from './storageKey.js'

export interface LocalDiskOptions {
  /** The disk's folder: public files under `<root>/public`, private ones under `<root>/private`. */
  root: string
  /** Where `<root>/public` is served (`fw storage:link` links `public/storage` to it). Default `/storage`. */
  url?: string
  /** Default `local`. */
  name?: string
}

const VISIBILITIES: readonly Visibility[] = ['private', 'public']

/** The query parameter of a signed link that carries its `Content-Disposition` (signed with the rest). */
export const DISPOSITION = 'response-content-disposition'

/**
 * Files on this machine's disk, under `storage/app`: a public file at `storage/app/public/<key>` (served at
 * `/storage/<key>` once `fw storage:link` has linked `public/storage` to that folder), a private one at
 * `storage/app/private/<key>`, which nothing serves. Writes go to a temporary file that is then renamed into place,
 * so a reader sees the old file or the new one, never half of one. Files live on one machine only: an app on
 * several machines (or in a container) uses the `s3` disk.
 *
 * @example
 * ```ts
 * const disk = new LocalDisk({ root: 'storage/app' })
 * await disk.put('avatars/1.png', bytes, { visibility: 'public' })
 * disk.url('avatars/1.png') // '/storage/avatars/1.png'
 * ```
 */
export class LocalDisk implements Disk {
  readonly name: string
  readonly root: string
  /** The path under which `url()` puts files (`/storage`), where `signedLocalFiles` serves signed links. */
  readonly urlPath: string
  private readonly urlBase: string
  private signer: UrlSigner | undefined

  constructor(options: LocalDiskOptions) {
    this.name = options.name ?? 'local'
    this.root = options.root
    this.urlBase = (options.url ?? '/storage').replace(/\/+$/, '')
    this.urlPath = new URL(this.urlBase, 'http://fw.invalid').pathname.replace(/\/+$/, '')
  }

  async put(key: string, contents: string | Uint8Array, options: PutOptions = {}): Promise<void> {
    await this.write(storageKey(key), options.visibility ?? 'private', (temporary) => writeFile(temporary, contents, { flag: 'wx' }))
  }

  async putStream(key: string, source: StreamSource, options: PutOptions = {}): Promise<void> {
    const readable = source instanceof Readable ? source : Readable.from(source as AsyncIterable<Uint8Array>)
    await this.write(storageKey(key), options.visibility ?? 'private', (temporary) => pipeline(readable, createWriteStream(temporary, { flags: 'wx' })))
  }

  async get(key: string): Promise<string> {
    return (await this.getBytes(key)).toString('utf8')
  }

  async getBytes(key: string): Promise<Buffer> {
    const { path } = await this.found(key)
    try {
      return await readFile(path)
    } catch (error) {
      throw this.missingOr(error, key)
    }
  }

  async getStream(key: string): Promise<Readable> {
    const { path } = await this.found(key)
    // Opened here, so that a file deleted in between fails now rather than on the stream's first read.
    const handle = await open(path, 'r').catch((error: unknown) => Promise.reject(this.missingOr(error, key)))
    return handle.createReadStream()
  }

  async exists(key: string): Promise<boolean> {
    return (await this.locate(storageKey(key))) !== undefined
  }

  async delete(key: string): Promise<void> {
    const checked = storageKey(key)
    await Promise.all(VISIBILITIES.map((visibility) => rm(this.pathOf(checked, visibility), { force: true })))
  }

  async copy(from: string, to: string): Promise<void> {
    const target = storageKey(to)
    const { path, visibility } = await this.found(from)
    await this.write(target, visibility, (temporary) =>
      pipeline(createReadStream(path), createWriteStream(temporary, { flags: 'wx' })).catch((error: unknown) => Promise.reject(this.missingOr(error, from))),
    )
  }

  async move(from: string, to: string): Promise<void> {
    const target = storageKey(to)
    const { path, visibility } = await this.found(from)
    if (target === storageKey(from)) return
    await mkdir(dirname(this.pathOf(target, visibility)), { recursive: true })
    await rename(path, this.pathOf(target, visibility)).catch((error: unknown) => Promise.reject(this.missingOr(error, from)))
    await rm(this.pathOf(target, other(visibility)), { force: true })
  }

  /** Walks both folders (public and private) and yields their files sorted by key, as S3 lists them. */
  async *list(folder = '', options: ListOptions = {}): AsyncIterable<StoredFile> {
    const prefix = storageFolder(folder)
    const files: StoredFile[] = []
    for (const visibility of VISIBILITIES) {
      const base = join(this.root, visibility)
      const start = prefix === '' ? base : join(base, prefix)
      const directory = await opendir(start, { recursive: options.recursive === true }).catch((error: unknown) => {
        if (isMissing(error)) return undefined
        throw error
      })
      if (directory === undefined) continue
      for await (const entry of directory) {
        if (!entry.isFile()) continue
        const path = join(entry.parentPath, entry.name)
        const info = await stat(path).catch(() => undefined)
        if (info !== undefined) files.push({ key: relative(base, path).split(sep).join('/'), size: info.size, lastModified: info.mtime })
      }
    }
    yield* files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }

  url(key: string): string {
    return `${this.urlBase}/${storageKey(key).split('/').map(encodeURIComponent).join('/')}`
  }

  /**
   * A link to the file at its `url()` path, with an expiry and a signature of `APP_KEY` (Fw's signed links) in its
   * query: the router serves it (public or private) until it expires, and answers 403 once it is changed or expired.
   * On `APP_URL` when it is set, else a path.
   */
  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    const path = new URL(this.url(key), 'http://fw.invalid')
    if (!(Number.isInteger(options.expiresIn) && options.expiresIn > 0)) {
      throw new RangeError(`signedUrl: expiresIn is a whole number of seconds from 1, not ${options.expiresIn}`)
    }
    const disposition = options.contentDisposition === undefined ? '' : `?${DISPOSITION}=${encodeURIComponent(options.contentDisposition)}`
    this.signer ??= UrlSigner.fromEnvironment()
    const signed = this.signer.sign(`${path.pathname}${disposition}`, Date.now() / 1000 + options.expiresIn)
    const origin = path.origin === 'http://fw.invalid' ? (process.env.APP_URL ?? '').replace(/\/+$/, '') : path.origin
    return `${origin}${signed}`
  }

  /** Where a key's file is on this machine and its size (what `signedLocalFiles` serves); `FileNotFoundError` when missing. */
  async file(key: string): Promise<{ path: string; size: number }> {
    const located = await this.locate(storageKey(key))
    if (located === undefined) throw new FileNotFoundError(this.name, key)
    return { path: located.path, size: located.stats.size }
  }

  async setVisibility(key: string, visibility: Visibility): Promise<void> {
    const found = await this.found(key)
    if (found.visibility === visibility) return
    const target = this.pathOf(storageKey(key), visibility)
    await mkdir(dirname(target), { recursive: true })
    await rename(found.path, target).catch((error: unknown) => Promise.reject(this.missingOr(error, key)))
  }

  async getVisibility(key: string): Promise<Visibility> {
    return (await this.found(key)).visibility
  }

  private pathOf(key: string, visibility: Visibility): string {
    return join(this.root, visibility, ...key.split('/'))
  }

  /** Where a key's file is and how visible it is, or undefined when there is no file. */
  private async locate(key: string): Promise<{ path: string; visibility: Visibility; stats: Stats } | undefined> {
    for (const visibility of VISIBILITIES) {
      const path = this.pathOf(key, visibility)
      const stats = await stat(path).catch((error: unknown) => {
        if (isMissing(error)) return undefined
        throw error
      })
      if (stats?.isFile()) return { path, visibility, stats }
    }
    return undefined
  }

  private async found(key: string): Promise<{ path: string; visibility: Visibility }> {
    const located = await this.locate(storageKey(key))
    if (located === undefined) throw new FileNotFoundError(this.name, key)
    return located
  }

  /**
   * Writes through a temporary file in `<root>/.tmp` (on the same file system as the target, so the rename is
   * atomic), then renames it into place and removes a file of the other visibility under the same key.
   */
  private async write(key: string, visibility: Visibility, fill: (temporary: string) => Promise<unknown>): Promise<void> {
    const target = this.pathOf(key, visibility)
    const temporary = join(this.root, '.tmp', randomUUID())
    await Promise.all([mkdir(dirname(temporary), { recursive: true }), mkdir(dirname(target), { recursive: true })])
    try {
      await fill(temporary)
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
    await rm(this.pathOf(key, other(visibility)), { force: true })
  }

  private missingOr(error: unknown, key: string): unknown {
    return isMissing(error) ? new FileNotFoundError(this.name, key, { cause: error }) : error
  }
}

function other(visibility: Visibility): Visibility {
  return visibility === 'public' ? 'private' : 'public'
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
