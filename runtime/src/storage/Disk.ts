import type { Readable } from 'node:stream'

/** Who may read a file: `public` files have a URL anyone can open (`disk.url(key)`); `private` ones do not. */
export type Visibility = 'public' | 'private'

/** What a disk stores from: a Node stream, a web stream, or any async iterable of bytes. */
export type StreamSource = Readable | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>

export interface PutOptions {
  /** Default `private`. */
  visibility?: Visibility
  /** The media type stored with the file (S3 serves it as `Content-Type`). */
  contentType?: string
  /**
   * `putStream` only: the stream's length in bytes, when known (an upload on disk). S3 then takes the file in one
   * request as it is read, instead of in 5 MiB parts held in memory.
   */
  contentLength?: number
}

export interface ListOptions {
  /** Also list the files of the folders below (default false: only the folder's own files). */
  recursive?: boolean
}

export interface SignedUrlOptions {
  /** Seconds the link stays valid. */
  expiresIn: number
  /** The `Content-Disposition` the download is served with, e.g. `attachment; filename="report.csv"`. */
  contentDisposition?: string
}

/** One file that `list()` found. */
export interface StoredFile {
  key: string
  size: number
  lastModified: Date
}

/**
 * A place files are stored under keys (`avatars/1.png`): the local disk or an S3 bucket, with one interface so that
 * the application's code does not change when it moves from one to the other. A key is a relative path of `/`-separated
 * names: no `..`, no leading `/`, no backslash, no NUL (an invalid key throws `InvalidKeyError`). Reading a key
 * that is not there throws `FileNotFoundError` (a 404 when it reaches the router).
 *
 * @example
 * ```ts
 * await storage().put('notes/a.txt', 'hello')
 * await storage().get('notes/a.txt') // 'hello'
 * ```
 */
export interface Disk {
  /** The disk's name (`local`, `s3`). */
  readonly name: string
  /** Stores a file whole (replacing one with that key); readers never see a half-written file. */
  put(key: string, contents: string | Uint8Array, options?: PutOptions): Promise<void>
  /** Stores what a stream gives, of any length, without holding it all in memory. */
  putStream(key: string, source: StreamSource, options?: PutOptions): Promise<void>
  /** The file as UTF-8 text. */
  get(key: string): Promise<string>
  /** The file's bytes. */
  getBytes(key: string): Promise<Buffer>
  /** A stream of the file's bytes (opened now: a missing file throws here, not on the first read). */
  getStream(key: string): Promise<Readable>
  exists(key: string): Promise<boolean>
  /** Deletes a file; deleting one that is not there is not an error. */
  delete(key: string): Promise<void>
  /** Copies a file (and its visibility) to another key. */
  copy(from: string, to: string): Promise<void>
  /** Moves a file (and its visibility) to another key. */
  move(from: string, to: string): Promise<void>
  /** The files in a folder (`''` for the top), sorted by key; with `recursive`, the folders below too. */
  list(folder?: string, options?: ListOptions): AsyncIterable<StoredFile>
  /** The URL a public file is served at. It does not check that the file exists or is public. */
  url(key: string): string
  /** A link that lets whoever holds it download a private file until it expires. */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string>
  setVisibility(key: string, visibility: Visibility): Promise<void>
  getVisibility(key: string): Promise<Visibility>
}
