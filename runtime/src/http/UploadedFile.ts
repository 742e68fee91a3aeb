import { randomUUID } from 'node:crypto'
import { createReadStream, readFileSync } from 'node:fs'
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, extname } from 'node:path'
import { Readable } from 'node:stream'
import type { Disk, Visibility } from '../storage/Disk.js'

/** Where `store()` puts a file: a disk (by name, default `FILESYSTEM_DISK`), and a name instead of a random one. */
export interface StoreOptions {
  disk?: string | Disk
  /** The file's name in the folder (default `<uuid>.<extension of the name the browser sent>`). */
  name?: string
  visibility?: Visibility
}

/** A file the multipart parser wrote to disk as it arrived: its path and size. */
export interface FileOnDisk {
  path: string
  size: number
}

/**
 * A file sent in a `multipart/form-data` body. A small one (the request's files up to 1 MiB in all) is held in
 * memory; a larger one was written to a temporary file as it arrived, and is never whole in memory unless
 * `bytes()` or `text()` asks for it. The temporary file is removed when the request is answered (or its client
 * goes away): move it or store it before the handler returns.
 *
 * @example
 * ```ts
 * const avatar = request.file('avatar')
 * if (!avatar || !avatar.type.startsWith('image/')) throw new HttpError(422, 'An image is required')
 * const key = await avatar.store('avatars', { disk: 's3' })
 * ```
 */
export class UploadedFile {
  /** The file name the browser sent (never trust it as a path). */
  readonly name: string
  /** The media type the browser sent, e.g. `image/png`. */
  readonly type: string
  /** Size in bytes. */
  readonly size: number
  private readonly data: Buffer | undefined
  /** Where the file is on disk when it is not in memory: the temporary file, or where `moveTo` renamed it. */
  private path: string | undefined
  /** Whether `path` is still the parser's temporary file (the first `moveTo` renames it; later ones copy). */
  private temporary: boolean

  constructor(name: string, type: string, contents: Buffer | FileOnDisk) {
    this.name = name
    this.type = type || 'application/octet-stream'
    if (Buffer.isBuffer(contents)) {
      this.size = contents.length
      this.data = contents
      this.temporary = false
    } else {
      this.size = contents.size
      this.path = contents.path
      this.temporary = true
    }
  }

  /** The file's bytes. A file on disk is read whole into memory, every call: for a large one, use `stream()`. */
  bytes(): Buffer {
    return this.data ?? readFileSync(this.path!)
  }

  /** The file's content as UTF-8 text (read whole, as `bytes()`). */
  text(): string {
    return this.bytes().toString('utf8')
  }

  /**
   * The file's bytes as a stream, read from disk as they are consumed.
   *
   * @example
   * ```ts
   * for await (const line of createInterface(request.file('csv')!.stream())) rows.push(line.split(','))
   * ```
   */
  stream(): Readable {
    return this.data === undefined ? createReadStream(this.path!) : Readable.from([this.data])
  }

  /**
   * Writes the file to a path (its folders are created), and returns the path. A file on disk is renamed there
   * (copied when the path is on another file system), never read into memory.
   */
  async moveTo(path: string): Promise<string> {
    await mkdir(dirname(path), { recursive: true })
    if (this.data !== undefined) await writeFile(path, this.data)
    else if (this.temporary) {
      await rename(this.path!, path).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error
        await copyFile(this.path!, path)
      })
      this.path = path
      this.temporary = false
    } else await copyFile(this.path!, path)
    return path
  }

  /**
   * Stores the file on a disk (`fw-runtime/storage`) in a folder, under a random name that keeps the extension the
   * browser sent, and returns its key: what to save in the database and give to `storage().url()`. A file on disk
   * is streamed to the disk, with its length (S3 takes it in one request, without holding parts in memory).
   *
   * @example
   * ```ts
   * const key = await request.file('photo')!.store('avatars', { disk: 's3', visibility: 'public' }) // 'avatars/<uuid>.jpg'
   * ```
   */
  async store(folder: string, options: StoreOptions = {}): Promise<string> {
    const [{ storage }, { storageFolder, storageKey }] = await Promise.all([import('../storage/storage.js'), import('../storage/storageKey.js')])
    const disk = typeof options.disk === 'object' ? options.disk : options.disk === undefined ? storage() : storage.disk(options.disk)
    const extension = extname(this.name).toLowerCase()
    const name = options.name ?? `${randomUUID()}${/^\.[a-z0-9]{1,10}$/.test(extension) ? extension : ''}`
    const base = storageFolder(folder)
    const key = storageKey(base === '' ? name : `${base}/${name}`)
    const put = { contentType: this.type, ...(options.visibility === undefined ? {} : { visibility: options.visibility }) }
    if (this.data !== undefined) await disk.put(key, this.data, put)
    else await disk.putStream(key, createReadStream(this.path!), { ...put, contentLength: this.size })
    return key
  }
}
