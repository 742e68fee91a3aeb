import { UploadedFile } from './UploadedFile.js'

export interface MultipartBody {
  /** The text fields; a repeated name (or `name[]`) becomes a list. */
  fields: Record<string, string | string[]>
  /** The files by field name, in the order sent. */
  files: Record<string, UploadedFile[]>
}

/**
 * Parses a `multipart/form-data` body with the platform's own parser (undici's `Response.formData()`, part of
 * Node): no dependency, and the body was already read within its limit. Throws on a malformed body.
 */
export async function parseMultipart(body: Buffer, contentType: string): Promise<MultipartBody> {
  const form = await new globalThis.Response(body, { headers: { 'Content-Type': contentType } }).formData()
  const fields: Record<string, string | string[]> = Object.create(null)
  const files: Record<string, UploadedFile[]> = Object.create(null)
  for (const [rawName, value] of form) {
    const isList = rawName.endsWith('[]')
    const name = isList ? rawName.slice(0, -2) : rawName
    if (typeof value === 'string') {
      const existing = fields[name]
      if (existing === undefined) fields[name] = isList ? [value] : value
      else if (Array.isArray(existing)) existing.push(value)
      else fields[name] = [existing, value]
    } else {
      const file = new UploadedFile(value.name, value.type, Buffer.from(await value.arrayBuffer()))
      ;(files[name] ??= []).push(file)
    }
  }
  return { fields, files }
}
