import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { createClient, json } from './app.js'

interface Page {
  data: { id: number }[]
  meta: { current_page: number; per_page: number; total: number; last_page: number }
}

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

describe('PostController: GET /api/posts', () => {
  it('page 1 by default, with the pagination meta and X-Total-Count', async () => {
    const response = await client.get('/api/posts')
    expect(response.status).toBe(200)
    const { data, meta } = await json<Page>(response)
    expect(meta.current_page).toBe(1)
    expect(data).toHaveLength(meta.per_page)
    expect(meta.last_page).toBe(Math.ceil(meta.total / meta.per_page))
    expect(response.headers.get('x-total-count')).toBe(String(meta.total))
  })

  it('?page=2 gives the next page', async () => {
    const first = await json<Page>(await client.get('/api/posts?page=1'))
    const second = await json<Page>(await client.get('/api/posts?page=2'))
    expect(second.meta.current_page).toBe(2)
    expect(second.data[0]).not.toEqual(first.data[0])
  })
})
