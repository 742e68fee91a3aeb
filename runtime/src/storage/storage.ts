import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appRoot } from '../config/appRoot.js'
import type { Disk } from './Disk.js'
import { LocalDisk } from './LocalDisk.js'
import { S3Disk } from './S3Disk.js'
import { s3DiskConfig } from './s3DiskConfig.js'

/** The disks Fw makes from the environment; `storage.register()` adds others. */
const BUILT_IN: Record<string, () => Disk> = {
  local: () => new LocalDisk({ root: join(appRoot(), 'storage/app') }),
  s3: () => new S3Disk(s3DiskConfig(process.env)),
}

const disks = new Map<string, Disk>()
/** The temporary folders of `fake()`'s disks, removed by `reset()`. */
const fakeFolders = new Set<string>()

function disk(name: string): Disk {
  let found = disks.get(name)
  if (found === undefined) {
    const make = BUILT_IN[name]
    if (make === undefined) throw new Error(`No storage disk named "${name}": the disks are ${[...new Set([...Object.keys(BUILT_IN), ...disks.keys()])].join(', ')}`)
    found = make()
    disks.set(name, found)
  }
  return found
}

/**
 * The application's files, as Laravel's `Storage` facade: `storage()` is the disk `FILESYSTEM_DISK` names (default
 * `local`, under `storage/app`), `storage.disk('s3')` a bucket configured from `AWS_*` (see `s3DiskConfig`). Each
 * disk is made on first use and kept for the process.
 *
 * @example
 * ```ts
 * await storage().put('avatars/1.png', bytes, { visibility: 'public', contentType: 'image/png' })
 * const link = await storage.disk('s3').signedUrl('exports/report.csv', { expiresIn: 300 })
 * ```
 */
export const storage = Object.assign(() => disk(process.env.FILESYSTEM_DISK?.trim() || 'local'), {
  /** A disk by name: `local`, `s3`, or one given to `register`. */
  disk,
  /** Adds a disk under its name, or replaces one (a bucket of its own for exports, a test's temporary folder). */
  register(added: Disk): void {
    disks.set(added.name, added)
  },
  /**
   * In tests: the disk (default: `FILESYSTEM_DISK`'s) becomes a local disk in a new temporary folder, until `reset()`,
   * so that code that stores on `s3` runs without a bucket; returns it, to look at what was stored.
   */
  fake(name: string = process.env.FILESYSTEM_DISK?.trim() || 'local'): LocalDisk {
    const fake = new LocalDisk({ root: mkdtempSync(join(tmpdir(), `fw-storage-${name}-`)), name })
    fakeFolders.add(fake.root)
    disks.set(name, fake)
    return fake
  },
  /** Forgets the disks made so far, and deletes the fakes' folders: the next use makes them again from the environment. */
  reset(): void {
    disks.clear()
    for (const folder of fakeFolders) rmSync(folder, { recursive: true, force: true })
    fakeFolders.clear()
  },
})
