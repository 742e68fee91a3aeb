// fw-runtime/storage: files on the local disk or in an S3 bucket, behind one Disk interface.
export type { Disk, ListOptions, PutOptions, SignedUrlOptions, StoredFile, StreamSource, Visibility } from './storage/Disk.js'
export { FileNotFoundError } from './storage/FileNotFoundError.js'
export { LocalDisk, type LocalDiskOptions } from './storage/LocalDisk.js'
export { S3Disk, type S3DiskOptions } from './storage/S3Disk.js'
export { s3DiskConfig } from './storage/s3DiskConfig.js'
export { storage } from './storage/storage.js'
export { InvalidKeyError, storageKey } from './storage/storageKey.js'
export type { StoreOptions } from './http/UploadedFile.js'
