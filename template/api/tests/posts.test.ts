import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, startServer, type TestServer } from './server.js'

interface Page {
  data: { id: number }[]
  meta: { current_page: number; per_page: number; total: number; last_page: number }
}

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.stop())

describe('PostController: GET /api/posts', () => {
  it('page 1 by default, with the pagination meta and X-Total-Count', async () => {
    const response = await fetch(`${server.url}/api/posts`)
    expect(response.status).toBe(200)
    const { data, meta } = await json<Page>(response)
    expect(meta.current_page).toBe(1)
    expect(data).toHaveLength(meta.per_page)
    expect(meta.last_page).toBe(Math.ceil(meta.total / meta.per_page))
    expect(response.headers.get('x-total-count')).toBe(String(meta.total))
  })

  it('?page=2 gives the next page', async () => {
    const first = await json<Page>(await fetch(`${server.url}/api/posts?page=1`))
    const second = await json<Page>(await fetch(`${server.url}/api/posts?page=2`))
    expect(second.meta.current_page).toBe(2)
    expect(second.data[0]).not.toEqual(first.data[0])
  })
})
