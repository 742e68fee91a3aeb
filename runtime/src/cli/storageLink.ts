import { lstatSync, mkdirSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { CommandError, type Command } from './Command.js'

/** `fw storage:link`, as Laravel's `php artisan storage:link`. */
export const storageLink: Command = {
  name: 'storage:link',
  summary: 'Link public/storage to storage/app/public, so that public files of the local disk are served',
  usage: 'storage:link',
  details: [
    'Makes the symbolic link public/storage → storage/app/public (both folders made when missing). The local disk puts',
    'files stored with { visibility: \'public\' } there, and storage().url(key) is /storage/<key>. Running it again',
    'changes nothing; something else at public/storage is left alone, with an error.',
  ],
  async run({ cwd }) {
    const link = join(cwd, 'public/storage')
    const target = join(cwd, 'storage/app/public')
    const existing = lstatSync(link, { throwIfNoEntry: false })
    if (existing !== undefined) {
      if (existing.isSymbolicLink() && pointsTo(link, target)) {
        mkdirSync(target, { recursive: true })
        console.log('public/storage already links to storage/app/public: nothing to do.')
        return 0
      }
      const what = existing.isSymbolicLink() ? `a link to ${readlinkSync(link)}` : existing.isDirectory() ? 'a folder' : 'a file'
      throw new CommandError(`public/storage is already ${what}: move it away, then run fw storage:link again`)
    }
    try {
      mkdirSync(target, { recursive: true })
      mkdirSync(join(cwd, 'public'), { recursive: true })
      // A relative link keeps working when the app's folder is moved, copied, or mounted elsewhere in a container.
      symlinkSync(relative(join(cwd, 'public'), target), link, 'junction')
    } catch (error) {
      throw new CommandError(`Could not link public/storage to storage/app/public: ${(error as Error).message}`)
    }
    console.log('Linked public/storage to storage/app/public.')
    return 0
  },
}

/** Whether a link leads to the folder (through any number of links, e.g. an app folder that is itself a link). */
function pointsTo(link: string, folder: string): boolean {
  try {
    return realpathSync(link) === realpathSync(folder)
  } catch {
    return resolve(link, '..', readlinkSync(link)) === folder
  }
}
