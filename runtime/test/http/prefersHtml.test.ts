import { describe, expect, it } from 'vitest'
import { prefersHtml } from '../../src/http/prefersHtml.js'

describe('prefersHtml', () => {
  it("is true for a browser's navigation: text/html named, and preferred to JSON", () => {
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'text/html',
      'TEXT/HTML; charset=utf-8',
      'application/xhtml+xml',
      'text/html, */*',
      'text/html, application/*',
      'application/json;q=0.5, text/html',
      'text/html;q=0.9, application/json;q=0.8',
    ]) {
      expect([accept, prefersHtml(accept)]).toEqual([accept, true])
    }
  })

  it('is false for curl, fetch, generated clients and API clients: no Accept, wildcards, JSON first or alone', () => {
    for (const accept of [
      undefined,
      null,
      '',
      '*/*',
      'text/*',
      'application/json',
      'application/json, text/plain, */*',
      'application/json, text/html',
      'text/html, application/json',
      'text/html;q=0.5, application/json',
      'text/html;q=0.5, */*',
      'text/html;q=0, */*',
      'text/html;q=oops',
      'application/problem+json, text/html;q=0.9',
      'text/plain',
    ]) {
      expect([accept, prefersHtml(accept)]).toEqual([accept, false])
    }
  })
})
