import { createRequire } from 'node:module'
import { join } from 'node:path'
import { appRoot } from '../config/appRoot.js'

/** The parts of the AWS SDK the s3 disk uses. */
export interface S3Sdk {
  client: typeof import('@aws-sdk/client-s3')
  storage: typeof import('@aws-sdk/lib-storage')
  presigner: typeof import('@aws-sdk/s3-request-presigner')
}

const PACKAGES = ['@aws-sdk/client-s3', '@aws-sdk/lib-storage', '@aws-sdk/s3-request-presigner'] as const

/** The line that installs what the s3 disk needs. */
export const S3_INSTALL = `npm install ${PACKAGES.join(' ')}`

let loaded: S3Sdk | undefined

/**
 * The AWS SDK's S3 packages, from the application's dependencies (else from fw-runtime's own), loaded on the first
 * use of an s3 disk: fw-runtime only lists them as optional peers, so an app that stores files locally neither
 * installs nor loads them. Throws an error naming the `npm install` line when one is missing.
 *
 * @example
 * ```ts
 * const { client } = loadS3Sdk()
 * ```
 */
export function loadS3Sdk(root: string = appRoot()): S3Sdk {
  if (loaded !== undefined) return loaded
  const [client, storage, presigner] = PACKAGES.map((name) => requireFrom(root, name))
  loaded = { client, storage, presigner } as S3Sdk
  return loaded
}

function requireFrom(root: string, name: string): unknown {
  // Required (their CommonJS build), not imported: the presigner and lib-storage then get the same copy of client-s3
  // that the disk's client comes from, and a bundler never follows the name into fw-runtime's dist.
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from)(name)
    } catch (error) {
      // Only the package itself missing: one of its own dependencies missing is a broken install, said as it is.
      if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND' || !String((error as Error).message).startsWith(`Cannot find module '${name}'`)) throw error
    }
  }
  throw new Error(`The s3 disk runs on the AWS SDK, and ${name} is not installed: ${S3_INSTALL}`)
}
