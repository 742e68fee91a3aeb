import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import type { Disk, ListOptions, PutOptions, SignedUrlOptions, StoredFile, StreamSource, Visibility } from './Disk.js'
import { FileNotFoundError } from './FileNotFoundError.js'
import { loadS3Sdk, type S3Sdk } from './loadS3Sdk.js'
import { storageFolder, storageKey } from './storageKey.js'

export interface S3DiskOptions {
  bucket: string
  region: string
  /** Left out on AWS to use the SDK's own chain (a role's keys). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
  /** An S3-compatible service (R2, MinIO…); left out for AWS. */
  endpoint?: string
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`. */
  forcePathStyle?: boolean
  /** Where public files are served (a CDN, or the bucket's public URL); `url(key)` is `<url>/<key>`. */
  url?: string
  /** Whether the bucket takes ACLs (visibility); false for R2 and for AWS buckets with ACLs disabled. Default true. */
  acl?: boolean
  /** Default `s3`. */
  name?: string
}

/** Parts of a stream upload: S3's smallest part is 5 MiB; four go up at once (at most 20 MiB in memory). */
const PART_SIZE = 5 * 1024 * 1024

/** 5 GiB: the largest object S3 takes in one PutObject. */
const MAX_PUT_SIZE = 5 * 1024 ** 3

/**
 * Files in an S3 bucket, on AWS or any S3-compatible service, through the AWS SDK v3 (loaded on first use: see
 * `loadS3Sdk`). Visibility is the object's ACL (`public-read` or `private`); `signedUrl` is a presigned GET.
 *
 * @example
 * ```ts
 * const disk = new S3Disk({ bucket: 'photos', region: 'eu-west-1' })
 * await disk.putStream('exports/big.csv', readable)
 * const link = await disk.signedUrl('exports/big.csv', { expiresIn: 300 })
 * ```
 */
export class S3Disk implements Disk {
  readonly name: string
  private readonly options: S3DiskOptions
  private loaded: S3Sdk | undefined
  private s3: S3Client | undefined

  constructor(options: S3DiskOptions) {
    this.name = options.name ?? 's3'
    this.options = options
  }

  /** The SDK's packages, loaded on the disk's first use. */
  private get sdk(): S3Sdk {
    return (this.loaded ??= loadS3Sdk())
  }

  /** The SDK's client, made on first use. */
  get client(): S3Client {
    if (this.s3 === undefined) {
      const { bucket: _bucket, url: _url, acl: _acl, name: _name, ...config } = this.options
      this.s3 = new this.sdk.client.S3Client({
        ...config,
        // Since the SDK's 2025 default, a stream body goes out as aws-chunked with a trailing checksum, which S3-compatible
        // services store as part of the file or reject (cache-storage-design.md, section 4). The SDK's own variables
        // (AWS_REQUEST_CHECKSUM_CALCULATION…) still decide when they are set.
        ...(config.endpoint !== undefined && process.env.AWS_REQUEST_CHECKSUM_CALCULATION === undefined ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const } : {}),
        ...(config.endpoint !== undefined && process.env.AWS_RESPONSE_CHECKSUM_VALIDATION === undefined ? { responseChecksumValidation: 'WHEN_REQUIRED' as const } : {}),
      })
    }
    return this.s3
  }

  async put(key: string, contents: string | Uint8Array, options: PutOptions = {}): Promise<void> {
    const Key = storageKey(key)
    await this.run(key, this.client.send(new this.sdk.client.PutObjectCommand({ Bucket: this.options.bucket, Key, Body: contents, ...this.putFields(options) })))
  }

  async putStream(key: string, source: StreamSource, options: PutOptions = {}): Promise<void> {
    const Key = storageKey(key)
    const Body = source instanceof Readable ? source : Readable.from(source as AsyncIterable<Uint8Array>)
    const client = this.client
    const { contentLength } = options
    if (contentLength !== undefined && contentLength <= MAX_PUT_SIZE) {
      // A known length goes in one PutObject, read from the stream as it is sent: nothing is held in memory.
      const put = new this.sdk.client.PutObjectCommand({ Bucket: this.options.bucket, Key, Body, ContentLength: contentLength, ...this.putFields(options) })
      await this.run(key, client.send(put))
      return
    }
    // lib-storage's Upload sends a stream of unknown length in parts (a plain PutObject needs the length up front).
    const upload = new this.sdk.storage.Upload({ client, params: { Bucket: this.options.bucket, Key, Body, ...this.putFields(options) }, partSize: PART_SIZE, queueSize: 4 })
    await upload.done().catch((error: unknown) => Promise.reject(this.explained(error, key)))
  }

  async get(key: string): Promise<string> {
    return (await this.getBytes(key)).toString('utf8')
  }

  async getBytes(key: string): Promise<Buffer> {
    const response = await this.run(key, this.client.send(new this.sdk.client.GetObjectCommand({ Bucket: this.options.bucket, Key: storageKey(key) })))
    return Buffer.from(await response.Body!.transformToByteArray())
  }

  async getStream(key: string): Promise<Readable> {
    const response = await this.run(key, this.client.send(new this.sdk.client.GetObjectCommand({ Bucket: this.options.bucket, Key: storageKey(key) })))
    return response.Body as Readable
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.run(key, this.client.send(new this.sdk.client.HeadObjectCommand({ Bucket: this.options.bucket, Key: storageKey(key) })))
      return true
    } catch (error) {
      if (error instanceof FileNotFoundError) return false
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await this.run(key, this.client.send(new this.sdk.client.DeleteObjectCommand({ Bucket: this.options.bucket, Key: storageKey(key) })))
  }

  async copy(from: string, to: string): Promise<void> {
    const source = storageKey(from)
    const target = storageKey(to)
    if (source === target) {
      // S3 refuses to copy an object onto itself unchanged; the file is already there, as asked (once it exists).
      if (!(await this.exists(source))) throw new FileNotFoundError(this.name, from)
      return
    }
    // S3 gives a copy the default ACL (private): the source's visibility is read first, to keep it.
    const visibility = this.options.acl === false ? undefined : await this.getVisibility(source)
    await this.run(
      from,
      this.client.send(
        new this.sdk.client.CopyObjectCommand({
          Bucket: this.options.bucket,
          Key: target,
          CopySource: `${this.options.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
          ...(visibility === undefined ? {} : { ACL: aclOf(visibility) }),
        }),
      ),
    )
  }

  async move(from: string, to: string): Promise<void> {
    if (storageKey(from) === storageKey(to)) return
    await this.copy(from, to)
    await this.delete(from)
  }

  /** Pages through ListObjectsV2 (1000 keys a request); without `recursive`, only the folder's own files. */
  async *list(folder = '', options: ListOptions = {}): AsyncIterable<StoredFile> {
    const prefix = storageFolder(folder)
    let ContinuationToken: string | undefined
    do {
      const page = await this.run(
        folder,
        this.client.send(
          new this.sdk.client.ListObjectsV2Command({
            Bucket: this.options.bucket,
            ...(prefix === '' ? {} : { Prefix: `${prefix}/` }),
            ...(options.recursive === true ? {} : { Delimiter: '/' }),
            ...(ContinuationToken === undefined ? {} : { ContinuationToken }),
          }),
        ),
      )
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined || object.Key.endsWith('/')) continue
        yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) }
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (ContinuationToken !== undefined)
  }

  url(key: string): string {
    const path = storageKey(key).split('/').map(encodeURIComponent).join('/')
    const { bucket, endpoint, forcePathStyle, region, url } = this.options
    if (url !== undefined) return `${url.replace(/\/+$/, '')}/${path}`
    if (endpoint === undefined) return `https://${bucket}.s3.${region}.amazonaws.com/${path}`
    const base = new URL(endpoint)
    const root = base.href.replace(/\/+$/, '')
    return forcePathStyle ? `${root}/${bucket}/${path}` : `${base.protocol}//${bucket}.${base.host}${base.pathname.replace(/\/+$/, '')}/${path}`
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    if (!(Number.isInteger(options.expiresIn) && options.expiresIn > 0 && options.expiresIn <= 604800)) {
      throw new RangeError(`signedUrl: expiresIn is a whole number of seconds from 1 to 604800 (7 days, S3's limit), not ${options.expiresIn}`)
    }
    const command = new this.sdk.client.GetObjectCommand({
      Bucket: this.options.bucket,
      Key: storageKey(key),
      ...(options.contentDisposition === undefined ? {} : { ResponseContentDisposition: options.contentDisposition }),
    })
    return this.sdk.presigner.getSignedUrl(this.client, command, { expiresIn: options.expiresIn })
  }

  async setVisibility(key: string, visibility: Visibility): Promise<void> {
    this.needsAcl('setVisibility')
    await this.run(key, this.client.send(new this.sdk.client.PutObjectAclCommand({ Bucket: this.options.bucket, Key: storageKey(key), ACL: aclOf(visibility) })))
  }

  async getVisibility(key: string): Promise<Visibility> {
    this.needsAcl('getVisibility')
    const acl = await this.run(key, this.client.send(new this.sdk.client.GetObjectAclCommand({ Bucket: this.options.bucket, Key: storageKey(key) })))
    const publicRead = (acl.Grants ?? []).some(
      (grant) => grant.Grantee?.URI === 'http://acs.amazonaws.com/groups/global/AllUsers' && (grant.Permission === 'READ' || grant.Permission === 'FULL_CONTROL'),
    )
    return publicRead ? 'public' : 'private'
  }

  /**
   * Checks that the bucket answers and that the credentials may use it, with one `HeadBucket` that gives up after
   * `timeoutMs`: what `/health` asks of the default disk. Throws why not.
   *
   * @example
   * ```ts
   * await new S3Disk(s3DiskConfig()).ping(2000)
   * ```
   */
  async ping(timeoutMs: number): Promise<void> {
    try {
      await this.client.send(new this.sdk.client.HeadBucketCommand({ Bucket: this.options.bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) })
    } catch (error) {
      const name = (error as { name?: string } | undefined)?.name
      // A HEAD has no body: a missing bucket is a bare 404, a refused key a bare 403.
      const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode
      if (name === 'TimeoutError' || name === 'AbortError') throw new Error(`The ${this.name} disk's bucket "${this.options.bucket}" did not answer within ${timeoutMs} ms`, { cause: error })
      if (status === 404) throw new Error(`The ${this.name} disk's bucket "${this.options.bucket}" does not exist (AWS_BUCKET)`, { cause: error })
      if (status === 403) throw new Error(`The ${this.name} disk may not use its bucket "${this.options.bucket}" (403): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`, { cause: error })
      throw this.explained(error, '')
    }
  }

  private putFields(options: PutOptions): { ACL?: 'public-read' | 'private'; ContentType?: string } {
    if (options.visibility !== undefined) this.needsAcl('put with a visibility')
    return {
      ...(options.visibility === undefined ? {} : { ACL: aclOf(options.visibility) }),
      ...(options.contentType === undefined ? {} : { ContentType: options.contentType }),
    }
  }

  private needsAcl(what: string): void {
    if (this.options.acl === false) {
      throw new Error(`${what} needs object ACLs, and the ${this.name} disk has them off (AWS_ACL=false): make the bucket's policy decide what is public`)
    }
  }

  /** What the SDK answered, with its errors for a missing object, bucket or key turned into ones that say what to do. */
  private async run<Output>(key: string, sent: Promise<Output>): Promise<Output> {
    try {
      return await sent
    } catch (error) {
      throw this.explained(error, key)
    }
  }

  private explained(error: unknown, key: string): unknown {
    const name = (error as { name?: string } | undefined)?.name
    const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode
    if (name === 'NoSuchKey' || name === 'NotFound' || (status === 404 && name !== 'NoSuchBucket')) return new FileNotFoundError(this.name, key, { cause: error })
    if (name === 'NoSuchBucket') return new Error(`The ${this.name} disk's bucket "${this.options.bucket}" does not exist (AWS_BUCKET)`, { cause: error })
    if (name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch') {
      return new Error(`The ${this.name} disk's credentials were refused (${name}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`, { cause: error })
    }
    if (name === 'CredentialsProviderError') {
      return new Error(`The ${this.name} disk found no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or give the machine a role)`, { cause: error })
    }
    return error
  }
}

function aclOf(visibility: Visibility): 'public-read' | 'private' {
  return visibility === 'public' ? 'public-read' : 'private'
}
