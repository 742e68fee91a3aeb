import { sql } from 'kysely'
import { db } from '../database/db.js'
import type { S3Disk } from '../storage/S3Disk.js'

/** Whether one service answered within its deadline. */
export type ServiceState = 'up' | 'down'

/** What `checkHealth` found: the database always; the cache and the default disk only when they are remote. */
export interface HealthReport {
  status: 'healthy' | 'unhealthy'
  database: ServiceState
  /** Redis, when `CACHE_STORE=redis` (the database and memory stores need nothing more than the database). */
  cache?: ServiceState
  /** The bucket, when the default disk (`FILESYSTEM_DISK`) is on S3. */
  storage?: ServiceState
  /** Unix seconds. */
  timestamp: number
}

/** How long each service has to answer before it counts as down. */
const TIMEOUT_MS = 2_000
/** How long a bucket's answer is reused: a HEAD request to S3 costs time and money, and load balancers ask often. */
const BUCKET_CHECK_TTL_MS = 1_000

/**
 * Checks what the application needs in order to answer, at once and each within 2 s: the database (`select 1`), the
 * cache when it is on Redis (`PING`), and the default disk when it is an S3 bucket (`HeadBucket`, reused for a
 * second). A service that does not answer is `down` and the report `unhealthy`; why is logged, never reported, so
 * that a public health check tells nothing about the insides. Never throws.
 *
 * @example
 * ```ts
 * const report = await checkHealth() // { status: 'healthy', database: 'up', cache: 'up', timestamp: 1767225600 }
 * return Response.json(report, report.status === 'healthy' ? 200 : 503)
 * ```
 */
export async function checkHealth(): Promise<HealthReport> {
  const [database, cache, storage] = await Promise.all([
    state('the database', () => sql`select 1`.execute(db())),
    process.env.CACHE_STORE === 'redis' ? state('the cache (Redis)', pingRedis) : undefined,
    defaultBucket().then((disk) => (disk === undefined ? undefined : state(`the ${disk.name} disk`, () => pingBucket(disk))), (error) => down('the default disk', error)),
  ])
  return {
    status: [database, cache, storage].includes('down') ? 'unhealthy' : 'healthy',
    database,
    ...(cache === undefined ? {} : { cache }),
    ...(storage === undefined ? {} : { storage }),
    timestamp: Math.floor(Date.now() / 1000),
  }
}

/** `up` when `check` settles within the deadline; else `down`, with the reason logged. */
async function state(what: string, check: () => Promise<unknown>): Promise<ServiceState> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)
  })
  try {
    await Promise.race([check(), timeout])
    return 'up'
  } catch (error) {
    return down(what, error)
  } finally {
    clearTimeout(timer)
  }
}

function down(what: string, error: unknown): ServiceState {
  console.error(`[health] ${what} is down: ${error instanceof Error ? error.message : String(error)}`)
  return 'down'
}

async function pingRedis(): Promise<void> {
  // Loaded here: only an application on Redis loads ioredis.
  const [{ redis }, { redisReady }] = await Promise.all([import('../redis/redis.js'), import('../redis/redisReady.js')])
  const client = redis()
  await redisReady(client)
  await client.ping()
}

/** The default disk when it is an S3 bucket; a disk that cannot be made (AWS_BUCKET missing) rejects. */
async function defaultBucket(): Promise<S3Disk | undefined> {
  const disk = process.env.FILESYSTEM_DISK?.trim()
  if (disk === undefined || disk === '' || disk === 'local') return undefined
  const [{ storage }, { S3Disk }] = await Promise.all([import('../storage/storage.js'), import('../storage/S3Disk.js')])
  const made = storage()
  return made instanceof S3Disk ? made : undefined
}

/** The last check of each bucket: its outcome is reused for a second, and a check under way is shared. */
const bucketChecks = new WeakMap<S3Disk, { at: number; outcome: Promise<void> }>()

function pingBucket(disk: S3Disk): Promise<void> {
  const last = bucketChecks.get(disk)
  if (last !== undefined && Date.now() - last.at < BUCKET_CHECK_TTL_MS) return last.outcome
  const outcome = disk.ping(TIMEOUT_MS)
  // Kept settled: a failure is each caller's to see, not an unhandled rejection of the cache.
  outcome.catch(() => undefined)
  bucketChecks.set(disk, { at: Date.now(), outcome })
  return outcome
}
