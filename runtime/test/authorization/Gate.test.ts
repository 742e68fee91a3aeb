import { beforeEach, describe, expect, it } from 'vitest'
import { GateRegistry } from '../../src/authorization/Gate.js'

interface User {
  id: number
  admin?: boolean
}
interface Note {
  owner_id: number
  locked?: boolean
}

class Note {
  static readonly table = 'notes'
}

class NotePolicy {
  static guests = ['view']
  viewAny(user: User) {
    return user.id > 0
  }
  view(user: User | null, note: Note) {
    return !note.locked || user?.id === note.owner_id
  }
  create(_user: User) {
    return true
  }
  update(user: User, note: Note) {
    return user.id === note.owner_id || 'You do not own this note'
  }
  async delete(user: User, note: Note) {
    await new Promise((resolve) => setTimeout(resolve, 1))
    return user.id === note.owner_id && !note.locked
  }
}

const ada: User = { id: 1 }
const eve: User = { id: 2 }
const root: User = { id: 3, admin: true }
const adasNote: Note = { owner_id: 1 }

describe('GateRegistry', () => {
  let gate: GateRegistry
  beforeEach(() => {
    gate = new GateRegistry()
  })

  it('asks a gate with the user and every argument; true allows, false denies with the default reason, a string gives its own', async () => {
    gate.define('publish', (user: User, note: Note) => user.id === note.owner_id || 'Only the owner may publish')
    gate.define('archive', (user: User) => user.id === 99)
    expect(await gate.inspect(ada, 'publish', adasNote)).toEqual({ allowed: true, message: undefined, status: 200 })
    expect(await gate.inspect(eve, 'publish', adasNote)).toEqual({ allowed: false, message: 'Only the owner may publish', status: 403 })
    expect(await gate.inspect(ada, 'archive')).toEqual({ allowed: false, message: 'This action is unauthorized.', status: 403 })
    expect(await gate.allows(ada, 'publish', adasNote)).toBe(true)
    expect(await gate.denies(eve, 'publish', adasNote)).toBe(true)
  })

  it('denies an ability that nothing decides', async () => {
    expect(await gate.inspect(ada, 'launch')).toEqual({ allowed: false, message: 'This action is unauthorized.', status: 403 })
  })

  it('awaits an asynchronous gate', async () => {
    gate.define('slow', async (user: User) => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      return user.id === 1
    })
    expect(await gate.allows(ada, 'slow')).toBe(true)
    expect(await gate.allows(eve, 'slow')).toBe(false)
  })

  it('picks the policy by the model class first, and gives its method the arguments after the class', async () => {
    gate.policy(Note, NotePolicy)
    expect(await gate.allows(ada, 'update', Note, adasNote)).toBe(true)
    expect(await gate.inspect(eve, 'update', Note, adasNote)).toEqual({ allowed: false, message: 'You do not own this note', status: 403 })
    expect(await gate.allows(ada, 'create', Note)).toBe(true)
    expect(await gate.allows(ada, 'delete', Note, adasNote)).toBe(true)
    expect(await gate.allows(ada, 'delete', Note, { owner_id: 1, locked: true })).toBe(false)
    // A method the policy lacks denies; its constructor and before are never abilities.
    expect(await gate.allows(ada, 'restore', Note, adasNote)).toBe(false)
    expect(await gate.allows(ada, 'constructor', Note)).toBe(false)
  })

  it('finds the model of a policy by its name in any case and by its table', () => {
    class BlogPost {}
    gate.policy(Note, NotePolicy).policy(BlogPost, NotePolicy)
    expect(gate.modelNamed('note')).toBe(Note)
    expect(gate.modelNamed('Note')).toBe(Note)
    expect(gate.modelNamed('blog_post')).toBe(BlogPost)
    expect(gate.modelNamed('blogPost')).toBe(BlogPost)
    expect(gate.modelNamed('comment')).toBeUndefined()
    expect(gate.modelForTable('notes')).toBe(Note)
    expect(gate.policyFor(Note)).toBeInstanceOf(NotePolicy)
    expect(gate.policyFor(Note)).toBe(gate.policyFor(Note))
  })

  it('lets a before hook decide for a signed-in user, and undefined fall through to the ability', async () => {
    gate.policy(Note, NotePolicy)
    gate.before((user: User) => (user.admin ? true : undefined))
    expect(await gate.allows(root, 'update', Note, adasNote)).toBe(true)
    expect(await gate.allows(root, 'anything at all')).toBe(true)
    expect(await gate.allows(eve, 'update', Note, adasNote)).toBe(false)
    gate.before((user: User, ability: string) => (ability === 'create' && user.id === 2 ? 'Eve is suspended' : undefined))
    expect(await gate.inspect(eve, 'create', Note)).toEqual({ allowed: false, message: 'Eve is suspended', status: 403 })
  })

  it('asks a policy’s own before method after the hooks, with the ability and the arguments', async () => {
    const seen: unknown[] = []
    class LockedPolicy extends NotePolicy {
      before(user: User, ability: string, note?: Note) {
        seen.push([user.id, ability, note])
        return note?.locked ? 'This note is locked' : undefined
      }
    }
    gate.policy(Note, LockedPolicy)
    expect(await gate.inspect(ada, 'update', Note, { owner_id: 1, locked: true })).toMatchObject({ allowed: false, message: 'This note is locked' })
    expect(await gate.allows(ada, 'update', Note, adasNote)).toBe(true)
    expect(seen).toEqual([
      [1, 'update', { owner_id: 1, locked: true }],
      [1, 'update', adasNote],
    ])
  })

  it('turns guests away with 401 from abilities that do not take them, without asking the ability or any hook', async () => {
    let asked = 0
    gate.policy(Note, NotePolicy)
    gate.before(() => {
      asked++
      return true
    })
    gate.define('comment', () => {
      asked++
      return true
    })
    expect(await gate.inspect(null, 'update', Note, adasNote)).toEqual({ allowed: false, message: 'Unauthenticated', status: 401 })
    expect(await gate.inspect(undefined, 'comment')).toEqual({ allowed: false, message: 'Unauthenticated', status: 401 })
    expect(asked).toBe(0)
  })

  it('asks the abilities that take guests with a null user', async () => {
    gate.policy(Note, NotePolicy)
    gate.define('readNews', (user: User | null) => user === null || 'Members read the members’ page', { guests: true })
    expect(await gate.allows(null, 'view', Note, adasNote)).toBe(true)
    expect(await gate.inspect(null, 'view', Note, { owner_id: 1, locked: true })).toEqual({ allowed: false, message: 'This action is unauthorized.', status: 403 })
    expect(await gate.allows(null, 'readNews')).toBe(true)
    expect(await gate.inspect(ada, 'readNews')).toMatchObject({ allowed: false, message: 'Members read the members’ page' })
  })

  it('refuses what is not a class or a function, saying what to pass', () => {
    expect(() => gate.define('x', 'yes' as never)).toThrow('Gate.define("x", callback): the callback must be a function')
    expect(() => gate.policy({} as never, NotePolicy)).toThrow('e.g. Gate.policy(Post, PostPolicy)')
    expect(() => gate.policy(Note, null as never)).toThrow('Gate.policy(Note, NotePolicy)')
  })

  it('forgets everything on reset', async () => {
    gate.policy(Note, NotePolicy).define('x', () => true).before(() => true)
    gate.reset()
    expect(gate.modelNamed('note')).toBeUndefined()
    expect(gate.has('x')).toBe(false)
    expect(await gate.allows(ada, 'x')).toBe(false)
  })
})
