import { describe, expect, it } from 'vitest'
import { HashLimiter } from '../../src/auth/HashLimiter.js'
import { HttpError } from '../../src/http/HttpError.js'

describe('HashLimiter', () => {
  it('runs at most `concurrency` at once, queues `queue` more, and answers 503 to the rest at once (finding 12)', async () => {
    const limiter = new HashLimiter(2, 3)
    let running = 0
    let most = 0
    const releases: (() => void)[] = []
    const work = () =>
      new Promise<string>((resolve) => {
        running++
        most = Math.max(most, running)
        releases.push(() => {
          running--
          resolve('done')
        })
      })
    const results = Array.from({ length: 8 }, () => limiter.run(work).then((value) => value, (error: unknown) => error))
    await new Promise((resolve) => setImmediate(resolve))
    expect(running).toBe(2)
    // Released one by one: each finished run hands its slot to the next in the queue.
    while (releases.length > 0) {
      releases.shift()!()
      await new Promise((resolve) => setImmediate(resolve))
    }
    const settled = await Promise.all(results)
    expect(settled.filter((value) => value === 'done')).toHaveLength(5)
    const refused = settled.filter((value) => value instanceof HttpError) as HttpError[]
    expect(refused.map((error) => [error.status, error.headers['Retry-After']])).toEqual([[503, '1'], [503, '1'], [503, '1']])
    expect(most).toBe(2)
    expect(await limiter.run(async () => 'again')).toBe('again')
  })

  it('frees the slot when the work fails', async () => {
    const limiter = new HashLimiter(1, 0)
    await expect(limiter.run(() => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed')
    expect(await limiter.run(async () => 'next')).toBe('next')
  })
})
