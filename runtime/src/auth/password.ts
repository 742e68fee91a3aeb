import { availableParallelism } from 'node:os'
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { HashLimiter } from './HashLimiter.js'

/**
 * scrypt's cost (N), block size (r) and parallelization (p): 32 MiB and a few tens of milliseconds per
 * hash. They are stored with each hash, so raising them later keeps existing hashes valid.
 */
const N = 2 ** 15
const r = 8
const p = 1
const KEY_LENGTH = 64
/** A stored hash asking for more than this is refused rather than computed: it could exhaust memory. */
const MAX_COST = 2 ** 20

/**
 * One limiter for every hash of the process, made on the first hash (after .env is loaded). libuv runs
 * scrypt on its 4 threads: more at once would only queue there, out of sight and unbounded.
 */
let limiter: HashLimiter | undefined

function hashLimiter(): HashLimiter {
  return (limiter ??= new HashLimiter(
    Number(process.env.AUTH_HASH_CONCURRENCY) || Math.min(4, Math.max(1, availableParallelism())),
    Number(process.env.AUTH_HASH_QUEUE) || 16,
  ))
}

/**
 * A hash to store instead of the password: `scrypt$N$r$p$salt$hash`, with a random salt. At most a few
 * hashes run at once in a process; past a short queue it throws a 503 HttpError (see `HashLimiter`).
 *
 * @example
 * ```ts
 * const stored = await hashPassword('correct horse battery staple')
 * await verifyPassword('correct horse battery staple', stored) // true
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, KEY_LENGTH, N, r, p)
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** Whether the password matches a stored hash, compared in constant time; false for anything not a hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, blockSize, parallelization, salt, hash, extra] = stored.split('$')
  if (scheme !== 'scrypt' || !cost || !blockSize || !parallelization || !salt || !hash || extra !== undefined) return false
  const [n, rr, pp] = [Number(cost), Number(blockSize), Number(parallelization)]
  if (![n, rr, pp].every(Number.isSafeInteger) || n > MAX_COST || rr > 32 || pp > 16) return false
  const expected = Buffer.from(hash, 'base64url')
  if (expected.length === 0) return false
  const actual = await derive(password, Buffer.from(salt, 'base64url'), expected.length, n, rr, pp)
  return timingSafeEqual(actual, expected)
}

function derive(password: string, salt: Buffer, length: number, cost: number, blockSize: number, parallelization: number): Promise<Buffer> {
  // NFKC: the same password typed on another keyboard or system gives the same bytes.
  const options = { N: cost, r: blockSize, p: parallelization, maxmem: 256 * cost * blockSize }
  return hashLimiter().run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)))
      }),
  )
}
