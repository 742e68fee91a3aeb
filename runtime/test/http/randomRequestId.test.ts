import { describe, expect, it } from 'vitest'
import { randomRequestId } from '../../src/http/randomRequestId.js'

describe('randomRequestId', () => {
  it('is a version 4 UUID of the RFC 9562 variant, as crypto.randomUUID writes one', () => {
    for (let i = 0; i < 600; i++) expect(randomRequestId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('never repeats, across the batches of random bytes it draws (256 ids each)', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => randomRequestId()))
    expect(ids.size).toBe(2000)
  })

  it('draws on every bit but the fixed ones: each hex digit takes many values over many ids', () => {
    const ids = Array.from({ length: 512 }, () => randomRequestId())
    for (const at of [0, 9, 15, 20, 35]) expect(new Set(ids.map((id) => id[at])).size).toBeGreaterThan(8)
  })
})
