import { describe, expect, it } from 'vitest'
import { s3DiskConfig } from '../../src/storage/s3DiskConfig.js'

const KEYS = { AWS_ACCESS_KEY_ID: 'AKIA123', AWS_SECRET_ACCESS_KEY: 'secret' }

describe('s3DiskConfig', () => {
  it("reads Laravel's AWS_* variables", () => {
    expect(
      s3DiskConfig({
        ...KEYS,
        AWS_BUCKET: 'photos',
        AWS_DEFAULT_REGION: 'eu-west-1',
        AWS_ENDPOINT: 'https://minio.internal:9000',
        AWS_USE_PATH_STYLE_ENDPOINT: 'true',
        AWS_URL: 'https://cdn.example.com',
        AWS_ACL: 'false',
      }),
    ).toEqual({
      bucket: 'photos',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIA123', secretAccessKey: 'secret' },
      endpoint: 'https://minio.internal:9000',
      forcePathStyle: true,
      url: 'https://cdn.example.com',
      acl: false,
    })
  })

  it("defaults to us-east-1, virtual-host style, ACLs on, and on AWS leaves credentials to the SDK's chain (a role)", () => {
    expect(s3DiskConfig({ AWS_BUCKET: 'photos' })).toEqual({ bucket: 'photos', region: 'us-east-1', forcePathStyle: false, acl: true })
    expect(s3DiskConfig({ AWS_BUCKET: 'photos', AWS_REGION: 'ap-south-1' }).region).toBe('ap-south-1')
  })

  it('names the variable that is missing', () => {
    expect(() => s3DiskConfig({ ...KEYS })).toThrow('The s3 disk needs AWS_BUCKET, the name of its bucket: set it in .env')
    expect(() => s3DiskConfig({ AWS_BUCKET: ' ', ...KEYS })).toThrow('AWS_BUCKET')
    expect(() => s3DiskConfig({ AWS_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'AKIA123' })).toThrow('The s3 disk has AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY: set both in .env')
    expect(() => s3DiskConfig({ AWS_BUCKET: 'b', AWS_SECRET_ACCESS_KEY: 'secret' })).toThrow('The s3 disk has AWS_SECRET_ACCESS_KEY but no AWS_ACCESS_KEY_ID: set both in .env')
    expect(() => s3DiskConfig({ AWS_BUCKET: 'b', AWS_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      'The s3 disk needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the service at AWS_ENDPOINT=http://127.0.0.1:9000: set them in .env',
    )
  })
})
