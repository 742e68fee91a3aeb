import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authorize, inspect } from '../../src/authorization/authorize.js'
import { Gate } from '../../src/authorization/Gate.js'
import { Container } from '../../src/container/Container.js'
import type { Middleware } from '../../src/http/Middleware.js'
import type { Request } from '../../src/http/Request.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, servers } from '../support/servers.js'

class Note {
  static readonly table = 'notes'
}
class NotePolicy {
  update(user: { id: number }, note: { owner: number }) {
    return user.id === note.owner
  }
}

const notes: Record<string, { owner: number }> = { '1': { owner: 1 } }

/** Signs in as user 1 when the request says X-User: 1. */
const signIn: Middleware = (request, next) => {
  if (request.header('x-user') === '1') request.user = { id: 1 }
  return next()
}

/** Binds the note of {note} under the parameter's name, or under another one ({memo}, a name no policy has). */
const bind = (parameter: string): Middleware => (request, next) => {
  request.bindModel(parameter, notes[request.param(parameter)!])
  return next()
}

describe.each(servers)('authorize through $name', ({ start }) => {
  let server: RunningServer
  beforeAll(async () => {
    Gate.reset()
    Gate.policy(Note, NotePolicy)
    const router = new Router(new Container(), { debug: true })
    router.put('/notes/{note}', async (request: Request) => {
      await authorize(request, 'update', request.model('note'))
      return { saved: true }
    }).middleware(signIn, bind('note'))
    router.put('/explicit/{id}', async (request: Request, id: string) => {
      await authorize(request, 'update', Note, notes[id])
      return { saved: true }
    }).middleware(signIn)
    router.get('/inspect/{note}', async (request: Request) => inspect(request, 'update', request.model('note'))).middleware(signIn, bind('note'))
    router.put('/memos/{memo}', async (request: Request) => {
      await authorize(request, 'update', request.model('memo'))
      return { saved: true }
    }).middleware(signIn, bind('memo'))
    router.put('/loose/{id}', async (request: Request, id: string) => {
      await authorize(request, 'update', notes[id])
      return { saved: true }
    }).middleware(signIn)
    router.put('/unbound/{note}', () => ({ saved: true })).middleware(signIn, 'can:update,note')
    router.put('/unknown', () => ({ saved: true })).middleware(signIn, 'can:update,Memo')
    server = await listenOn(start, router)
  })
  afterAll(async () => {
    Gate.reset()
    await server?.close()
  })

  const put = async (path: string, user?: string) => {
    const response = await fetch(`${server.url}${path}`, { method: 'PUT', headers: user ? { 'x-user': user, accept: 'application/json' } : { accept: 'application/json' } })
    return { status: response.status, body: (await response.json()) as any }
  }

  it('asks the policy of the row the route bound, or of the class named first', async () => {
    expect(await put('/notes/1', '1')).toEqual({ status: 200, body: { saved: true } })
    expect(await put('/notes/1')).toEqual({ status: 401, body: { error: 'Unauthenticated' } })
    expect(await put('/explicit/1', '1')).toEqual({ status: 200, body: { saved: true } })
    expect(await put('/explicit/1')).toEqual({ status: 401, body: { error: 'Unauthenticated' } })
  })

  it('gives the decision with its reason and status to inspect', async () => {
    const response = await fetch(`${server.url}/inspect/1`)
    expect(await response.json()).toEqual({ allowed: false, message: 'Unauthenticated', status: 401 })
  })

  it('says what to do when a row’s model cannot be told, or a can: subject names nothing', async () => {
    const memo = await put('/memos/1', '1')
    expect(memo.status).toBe(500)
    expect(memo.body.error).toContain('the row bound to {memo} has no policy: register one in bootstrap/app.ts, Gate.policy(Memo, MemoPolicy)')
    const loose = await put('/loose/1', '1')
    expect(loose.body.error).toContain("which model is this row of? No gate is named \"update\", and the row is not a model that this route bound: name the model first, authorize(request, 'update', Post, post)")
    const unbound = await put('/unbound/1', '1')
    expect(unbound.body.error).toContain("can:update,note on PUT /unbound/{note}: no model is bound to {note}: bind it on the route, .bind('note', Model)")
    const unknown = await put('/unknown', '1')
    expect(unknown.body.error).toContain('can:update,Memo on PUT /unknown: "Memo" is neither a parameter of the route nor a model with a policy')
  })
})
