import { open, type FileHandle } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import type { BusboyConstructor, BusboyHeaders, BusboyInstance } from '@fastify/busboy'
import { HttpError } from './HttpError.js'
import type { UploadFolder } from './UploadFolder.js'
import { UploadedFile } from './UploadedFile.js'

export interface MultipartBody {
  /** The text fields; a repeated name (or `name[]`) becomes a list. */
  fields: Record<string, string | string[]>
  /** The files by field name, in the order sent. */
  files: Record<string, UploadedFile[]>
}

export interface MultipartLimits {
  /** The largest body, files and fields together, in bytes; past it, a 413. */
  uploadLimit: number
  /** The largest total of the text fields (they are held in memory), in bytes; past it, a 413. */
  fieldsLimit: number
  /** Where files go once the request's files in memory pass `UPLOAD_MEMORY_LIMIT`. */
  folder: UploadFolder
}

/** 1 MiB: a request's files up to this size in all stay in memory; the rest go to temporary files. */
export const UPLOAD_MEMORY_LIMIT = 1024 * 1024

/** Parts (fields and files) a body may have: past it, a 413, before a flood of tiny files fills the temp folder. */
const MAX_PARTS = 1000

/** @fastify/busboy, loaded by the first multipart body: an app that takes none starts without it (30 ms and more). */
let busboy: Promise<{ Busboy: BusboyConstructor }> | undefined

/** A body over a limit: the caller reads the rest of the body and throws it away before answering. */
const TOO_LARGE = new HttpError(413, 'Payload Too Large', { headers: { Connection: 'close' } })
const MALFORMED = new HttpError(400, 'Malformed multipart body')
const UNREADABLE = new HttpError(400, 'Request body could not be read', { headers: { Connection: 'close' } })

/**
 * Reads a `multipart/form-data` body as it arrives, with @fastify/busboy (the parser fastify's own multipart
 * plugin uses): fields into memory, files into memory until the request's files pass `UPLOAD_MEMORY_LIMIT`, then
 * each into a temporary file of `folder`, so that an upload of any size costs about the socket's buffers. The
 * socket is paused while a file is written, so a client cannot send faster than the disk takes it.
 *
 * Rejects with an HttpError: 413 past a limit, leaving the rest of the body unread for the caller to throw away;
 * 400 for a malformed body or one the client stopped sending; 500 when a file cannot be written (a full disk).
 * Files written so far stay in `folder` for the caller to discard.
 *
 * @example
 * ```ts
 * const { fields, files } = await parseMultipart(req, { uploadLimit: 20 * 1024 * 1024, fieldsLimit: 1024 * 1024, folder })
 * ```
 */
export async function parseMultipart(raw: IncomingMessage, limits: MultipartLimits): Promise<MultipartBody> {
  const { Busboy } = await (busboy ??= import('@fastify/busboy'))
  return new Promise((resolve, reject) => {
    let parser: BusboyInstance
    try {
      parser = Busboy({
        headers: raw.headers as BusboyHeaders,
        // A part is a file when it has a file name, as browsers and undici's FormData decide; busboy would also take
        // any `application/octet-stream` part for one.
        isPartAFile: (_field, _type, fileName) => fileName !== undefined,
        // busboy cuts names past 100 bytes by default; the fields limit bounds them instead, as it bounds values.
        limits: { parts: MAX_PARTS, fieldSize: limits.fieldsLimit, fieldNameSize: limits.fieldsLimit },
      })
    } catch {
      reject(MALFORMED)
      return
    }

    const fields: Record<string, string | string[]> = Object.create(null)
    const files: [name: string, file: Promise<UploadedFile>][] = []
    const reading = new Set<Readable>()
    let bodySize = 0
    let fieldsSize = 0
    let inMemory = 0
    let settled = false

    const detach = () => raw.off('data', onData).off('end', onEnd).off('error', onAborted).off('close', onAborted)
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      detach()
      raw.pause()
      for (const stream of reading) stream.destroy()
      parser.destroy()
      // The files being written close first, so that the caller's discard finds every one of them.
      void Promise.allSettled(files.map(([, file]) => file)).then(() => reject(error))
    }

    /** A file into memory while the request's files in memory stay within the limit, then into a temporary file. */
    const receive = async (stream: Readable, name: string, type: string): Promise<UploadedFile> => {
      reading.add(stream)
      const chunks: Buffer[] = []
      let size = 0
      let path: string | undefined
      let handle: FileHandle | undefined
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length
          if (handle === undefined && inMemory + chunk.length <= UPLOAD_MEMORY_LIMIT) {
            inMemory += chunk.length
            chunks.push(chunk)
            continue
          }
          if (handle === undefined) {
            path = await limits.folder.newFile()
            handle = await open(path, 'wx')
            for (const held of chunks) await handle.writeFile(held)
            inMemory -= size - chunk.length
            chunks.length = 0
          }
          await handle.writeFile(chunk)
        }
      } finally {
        reading.delete(stream)
        await handle?.close()
      }
      return path === undefined ? new UploadedFile(name, type, Buffer.concat(chunks, size)) : new UploadedFile(name, type, { path, size })
    }

    parser.on('field', (rawName, value, nameTruncated, valueTruncated) => {
      fieldsSize += Buffer.byteLength(rawName) + Buffer.byteLength(value)
      if (nameTruncated || valueTruncated || fieldsSize > limits.fieldsLimit) return fail(TOO_LARGE)
      add(fields, rawName, value)
    })
    parser.on('file', (rawName, stream, fileName, _encoding, type) => {
      const file = receive(stream, fileName, type)
      // A failed write (a full disk) fails the request; the rejection is handled there, not left unhandled here.
      file.catch((error: unknown) => fail(new HttpError(500, 'The upload could not be saved', { cause: error })))
      files.push([rawName, file])
    })
    parser.on('partsLimit', () => fail(TOO_LARGE))
    parser.on('error', () => fail(MALFORMED))
    parser.on('finish', () => {
      Promise.all(files.map(([, file]) => file)).then((received) => {
        if (settled) return
        settled = true
        const byName: Record<string, UploadedFile[]> = Object.create(null)
        received.forEach((file, index) => {
          const rawName = files[index]![0]
          ;(byName[rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName] ??= []).push(file)
        })
        resolve({ fields, files: byName })
      }, fail)
    })

    const onData = (chunk: Buffer) => {
      bodySize += chunk.length
      if (bodySize > limits.uploadLimit) return fail(TOO_LARGE)
      // Backpressure: a file being written to disk holds the parser, which holds the socket.
      if (!parser.write(chunk)) {
        raw.pause()
        parser.once('drain', () => settled || raw.resume())
      }
    }
    const onEnd = () => {
      detach()
      parser.end()
    }
    const onAborted = () => fail(UNREADABLE)
    if (raw.destroyed) return fail(UNREADABLE)
    raw.on('data', onData).on('end', onEnd).on('error', onAborted).on('close', onAborted)
  })
}

/** A field into the fields: a repeated name, or one ending in `[]`, becomes a list. */
function add(fields: Record<string, string | string[]>, rawName: string, value: string): void {
  const isList = rawName.endsWith('[]')
  const name = isList ? rawName.slice(0, -2) : rawName
  const existing = fields[name]
  if (existing === undefined) fields[name] = isList ? [value] : value
  else if (Array.isArray(existing)) existing.push(value)
  else fields[name] = [existing, value]
}
