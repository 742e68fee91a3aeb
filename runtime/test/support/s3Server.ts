import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { S3Client } from '@aws-sdk/client-s3'
// @ts-expect-error: @20minutes/s3rver ships no types.
import S3rver from '@20minutes/s3rver'
import type { S3DiskOptions } from '../../src/storage/S3Disk.js'

/** A real S3-compatible server (s3rver, which checks SigV4 signatures) on 127.0.0.1, storing into a temporary folder. */
export interface S3Server {
  endpoint: string
  bucket: string
  /** The environment an app's s3 disk reads (`s3DiskConfig`). */
  env: Record<string, string>
  /** S3Disk options for this server. */
  options: S3DiskOptions
  close(): Promise<void>
}

/**
 * Starts s3rver on a free port with one bucket; credentials are s3rver's own (`S3RVER`/`S3RVER`), path style.
 *
 * @example
 * ```ts
 * const s3 = await startS3Server()
 * const disk = new S3Disk(s3.options); withS3rverListFix(disk.client)
 * ```
 */
export async function startS3Server(bucket = 'fw-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'fw-s3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] })
  const { port } = (await server.run()) as AddressInfo
  const endpoint = `http://127.0.0.1:${port}`
  const env = {
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_BUCKET: bucket,
    AWS_ENDPOINT: endpoint,
    AWS_USE_PATH_STYLE_ENDPOINT: 'true',
  }
  return {
    endpoint,
    bucket,
    env,
    options: { bucket, region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } },
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

/**
 * s3rver signs a bucket's own path (`ListObjectsV2` at the top: `/bucket/`) without its trailing slash, so the SDK's
 * signature does not match and every such list answers 403. Real S3, R2 and MinIO accept it: the fix belongs to the
 * test server, not to the disk, so it is applied to a test's client only, by dropping the slash before signing.
 */
export function withS3rverListFix(client: S3Client): void {
  client.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { path?: string }
      if (typeof request.path === 'string' && /^\/[^/]+\/$/.test(request.path)) request.path = request.path.slice(0, -1)
      return next(args)
    },
    { step: 'build', name: 'fwS3rverListFix' },
  )
}
