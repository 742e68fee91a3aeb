import { describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { operationNames } from '../../src/openapi/operationNames.js'
import { Router } from '../../src/routing/Router.js'

class PostController {
  store() {
    return {}
  }
}
const Api = {
  PostController: class PostController {
    store() {
      return {}
    }
  },
}

describe('operationNames', () => {
  const router = new Router(new Container())
  const web = router.post('/posts', [PostController, 'store'])
  const api = router.post('/api/posts', [Api.PostController, 'store'])
  const named = router.post('/drafts', [PostController, 'store']).name('drafts.store')
  const closure = router.get('/api/health/{check}', () => ({}))
  const routes = router.commit().getRoutes()

  it("names a controller's operation by its file under App/Controllers, and tags it with its folder beside a namesake", () => {
    const names = operationNames(routes, new Map([[Api.PostController, 'Api/PostController'], [PostController, 'PostController']]))
    expect(names.operationId(api, 'POST', '/api/posts')).toBe('Api.PostController.store')
    expect(names.operationId(web, 'POST', '/posts')).toBe('PostController.store')
    expect([names.tag(api), names.tag(web)]).toEqual(['Api/Post', 'Post'])
  })

  it('lets a route name win, follows the path for a closure, and falls back to the class name without files', () => {
    const names = operationNames(routes)
    expect(names.operationId(named, 'POST', '/drafts')).toBe('drafts.store')
    expect(names.operationId(closure, 'GET', '/api/health/{check}')).toBe('get_api_health_check')
    expect(names.operationId(api, 'POST', '/api/posts')).toBe('PostController.store')
    expect([names.tag(api), names.tag(web), names.tag(closure)]).toEqual(['Post', 'Post', 'api'])
  })
})
