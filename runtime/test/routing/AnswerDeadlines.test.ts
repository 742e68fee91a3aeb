import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Response } from '../../src/http/Response.js'
import { AnswerDeadlines, type PendingAnswer } from '../../src/routing/AnswerDeadlines.js'
import { requestFor as request } from '../support/requestFor.js'

describe('AnswerDeadlines: one timer for the handler timeout of every request in flight', () => {
  let expired: string[]
  let deadlines: AnswerDeadlines
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    expired = []
    deadlines = new AnswerDeadlines(100, (pending: PendingAnswer) => expired.push(pending.request.uri()))
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('expires each request at its own deadline, in the order they started, and never one that answered', () => {
    const resolve = (_response: Response) => undefined
    const a = deadlines.add(request('/a'), resolve)
    vi.advanceTimersByTime(10)
    const b = deadlines.add(request('/b'), resolve)
    vi.advanceTimersByTime(10)
    deadlines.add(request('/c'), resolve)
    vi.advanceTimersByTime(5)
    expect(deadlines.remove(b)).toBe(true)
    vi.advanceTimersByTime(74)
    expect(expired).toEqual([])
    vi.advanceTimersByTime(1)
    expect(expired).toEqual(['/a'])
    expect(deadlines.remove(a)).toBe(false)
    vi.advanceTimersByTime(19)
    expect(expired).toEqual(['/a'])
    vi.advanceTimersByTime(1)
    expect(expired).toEqual(['/a', '/c'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('holds one timer however many requests wait, and none once they have all answered', () => {
    const waiting = Array.from({ length: 50 }, (_, i) => deadlines.add(request(`/r${i}`), () => undefined))
    expect(vi.getTimerCount()).toBe(1)
    for (const pending of waiting) expect(deadlines.remove(pending)).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(1000)
    expect(expired).toEqual([])
  })
})
