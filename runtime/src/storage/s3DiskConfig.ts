import type { S3DiskOptions } from './S3Disk.js'

/**
 * The s3 disk's settings from the environment, under Laravel's names: `AWS_BUCKET` (required),
 * `AWS_DEFAULT_REGION` (default `us-east-1`), `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (required with
 * `AWS_ENDPOINT`; on AWS itself, left out, the SDK's own chain finds a role's keys), `AWS_ENDPOINT` (an
 * S3-compatible service: R2, MinIO…), `AWS_USE_PATH_STYLE_ENDPOINT=true` (`endpoint/bucket/key` URLs), `AWS_URL`
 * (where public files are served, e.g. a CDN), `AWS_ACL=false` for a bucket without ACLs (R2, or "bucket owner
 * enforced" on AWS). Throws an error naming the variable that is missing.
 *
 * @example
 * ```ts
 * const disk = new S3Disk(s3DiskConfig(process.env))
 * ```
 */
export function s3DiskConfig(env: NodeJS.ProcessEnv = process.env): S3DiskOptions {
  const bucket = env.AWS_BUCKET?.trim()
  if (!bucket) throw new Error('The s3 disk needs AWS_BUCKET, the name of its bucket: set it in .env')
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim()
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim()
  if (accessKeyId && !secretAccessKey) throw new Error('The s3 disk has AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY: set both in .env')
  if (secretAccessKey && !accessKeyId) throw new Error('The s3 disk has AWS_SECRET_ACCESS_KEY but no AWS_ACCESS_KEY_ID: set both in .env')
  const endpoint = env.AWS_ENDPOINT?.trim() || undefined
  if (endpoint !== undefined && !accessKeyId) {
    throw new Error(`The s3 disk needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the service at AWS_ENDPOINT=${endpoint}: set them in .env`)
  }
  return {
    bucket,
    region: env.AWS_DEFAULT_REGION?.trim() || env.AWS_REGION?.trim() || 'us-east-1',
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    ...(endpoint === undefined ? {} : { endpoint }),
    forcePathStyle: isTrue(env.AWS_USE_PATH_STYLE_ENDPOINT),
    ...(env.AWS_URL?.trim() ? { url: env.AWS_URL.trim() } : {}),
    acl: env.AWS_ACL === undefined ? true : isTrue(env.AWS_ACL),
  }
}

function isTrue(value: string | undefined): boolean {
  return ['true', '1', 'yes', 'on'].includes((value ?? '').trim().toLowerCase())
}
