import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

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
}
