import { rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Folders not yet discarded, removed when the process exits (a server whose responses Fw cannot see). */
const live = new Set<string>()

function removeLive(): void {
  for (const path of live) rmSync(path, { recursive: true, force: true })
}

/**
 * The temporary folder of one request's large uploads: `fw-upload-XXXXXX` in the OS temp folder (`os.tmpdir()`, so
 * `TMPDIR` moves it), made when the first file goes to disk and removed whole by `discard()`, once the parser is
 * done writing. The OS temp folder rather than the app's `storage/`: it is writable where the app's folder is not
 * (a read-only container image), the OS empties it after a crash, and it is where PHP, AdonisJS and multer put
 * uploads.
 *
 * @example
 * ```ts
 * const folder = new UploadFolder()
 * const path = await folder.newFile() // '/tmp/fw-upload-a1B2c3/1'
 * await folder.discard()
 * ```
 */
export class UploadFolder {
  private made: Promise<string> | undefined
  private files = 0
  private writing: Promise<unknown> = Promise.resolve()
  private discarded = false

  /** A new path in the folder (made on first use). */
  async newFile(): Promise<string> {
    if (this.discarded) throw new Error('The request is over: its upload folder was removed')
    this.made ??= mkdtemp(join(tmpdir(), 'fw-upload-')).then((path) => {
      if (live.size === 0) process.once('exit', removeLive)
      live.add(path)
      return path
    })
    return join(await this.made, String(++this.files))
  }

  /** Work that writes into the folder: `discard()` waits for it, so that no file lands in a folder being removed. */
  hold(work: Promise<unknown>): void {
    this.writing = work.catch(() => undefined)
  }

  /** Removes the folder and every file in it (a file moved out of it stays where it went). Never throws. */
  async discard(): Promise<void> {
    this.discarded = true
    await this.writing
    const path = await this.made?.catch(() => undefined)
    if (path === undefined || !live.delete(path)) return
    if (live.size === 0) process.off('exit', removeLive)
    await rm(path, { recursive: true, force: true }).catch(() => undefined)
  }
}
