import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, extname } from 'node:path'
import type { Disk, Visibility } from '../storage/Disk.js'

/** Where `store()` puts a file: a disk (by name, default `FILESYSTEM_DISK`), and a name instead of a random one. */
export interface StoreOptions {
  disk?: string | Disk
  /** The file's name in the folder (default `<uuid>.<extension of the name the browser sent>`). */
  name?: string
  visibility?: Visibility
}

/**
 * A file sent in a `multipart/form-data` body, held in memory (the body limit bounds its size).
 *
 * @example
 * ```ts
 * const avatar = request.file('avatar')
 * if (!avatar || !avatar.type.startsWith('image/')) throw new HttpError(422, 'An image is required')
 * await avatar.moveTo(`storage/avatars/${user.id}.png`)
 * ```
 */
export class UploadedFile {
  /** The file name the browser sent (never trust it as a path). */
  readonly name: string
  /** The media type the browser sent, e.g. `image/png`. */
  readonly type: string
  /** Size in bytes. */
  readonly size: number
  private readonly data: Buffer

  constructor(name: string, type: string, data: Buffer) {
    this.name = name
    this.type = type || 'application/octet-stream'
    this.size = data.length
    this.data = data
  }

  /** The file's bytes. */
  bytes(): Buffer {
    return this.data
  }

  /** The file's content as UTF-8 text. */
  text(): string {
    return this.data.toString('utf8')
  }

  /** Writes the file to a path (its folders are created), and returns the path. */
  async moveTo(path: string): Promise<string> {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, this.data)
    return path
  }

  /**
   * Stores the file on a disk (`fw-runtime/storage`) in a folder, under a random name that keeps the extension the
   * browser sent, and returns its key: what to save in the database and give to `storage().url()`.
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
    await disk.put(key, this.data, { contentType: this.type, ...(options.visibility === undefined ? {} : { visibility: options.visibility }) })
    return key
  }
}
