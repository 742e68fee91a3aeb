/** A key or folder a disk refuses: the message says which rule it breaks. */
export class InvalidKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`)
    this.name = 'InvalidKeyError'
  }
}

/**
 * A file's key as every disk stores it, or an `InvalidKeyError`: `/`-separated names, none of them empty, `.` or
 * `..`, no leading `/`, no backslash, no NUL. Checked the same way on every disk, so that a key that works on
 * `local` works on `s3`, and no key reaches outside a disk's folder.
 *
 * @example
 * ```ts
 * storageKey('avatars/1.png') // 'avatars/1.png'
 * storageKey('../.env')       // throws InvalidKeyError
 * ```
 */
export function storageKey(key: string): string {
  if (typeof key !== 'string' || key === '') throw new InvalidKeyError(String(key), 'a key is a non-empty string')
  if (key.includes('\0')) throw new InvalidKeyError(key, 'it contains a NUL byte')
  if (key.includes('\\')) throw new InvalidKeyError(key, 'it contains a backslash (use / between folders)')
  if (key.startsWith('/')) throw new InvalidKeyError(key, 'it is absolute (a key is relative to the disk: drop the leading /)')
  for (const name of key.split('/')) {
    if (name === '..') throw new InvalidKeyError(key, 'it contains ".." (a key cannot leave the disk)')
    if (name === '.' || name === '') throw new InvalidKeyError(key, 'it contains an empty or "." folder name')
  }
  return key
}

/** A folder to list: `''` for the top, else a key (a trailing `/` is allowed), returned without its trailing `/`. */
export function storageFolder(folder: string): string {
  const bare = folder.endsWith('/') ? folder.slice(0, -1) : folder
  return bare === '' ? '' : storageKey(bare)
}
