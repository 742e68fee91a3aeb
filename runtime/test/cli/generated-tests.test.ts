// A generated app's own tests, run by its vitest: several clients of tests/app.ts in one file, make:auth's UserFactory
// signing users in, and the tests make:test and make:controller write, all on the tests' own database: the
// development database keeps its rows.
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { FwApp } from '../support/fwApp.js'
import { checkout, generatedApp, runOwnTests, typeCheck } from '../support/generatedAuthApp.js'

/** Two clients of tests/app.ts in one file, each signed in as a user of make:auth's UserFactory. */
const FACTORY_TEST = `import { beforeEach, expect, it } from 'vitest'
import { refreshDatabase } from 'fw-runtime/testing'
import { User } from '#app/Models/User.js'
import { PASSWORD, UserFactory } from '#database/factories/UserFactory.js'
import { createClient } from './app.js'

beforeEach(refreshDatabase)

it('signs in users of the factory, each in a client of its own', async () => {
  const users = await User.factory().count(2).create()
  for (const user of users) {
    const client = await createClient()
    const login = await client.post('/login', { email: user.email, password: PASSWORD })
    expect(login.status).toBe(200)
    const me = await client.get('/me', { headers: { Accept: 'application/json', Authorization: \`Bearer \${(await login.json()).token}\` } })
    expect((await me.json()).user.email).toBe(user.email)
  }
  expect(new Set(users.map((user) => user.email)).size).toBe(2)
})

it('makes verified users, and unverified ones on demand', async () => {
  const verified = await UserFactory.create()
  const unverified = await UserFactory.state('unverified').create({ name: 'Grace' })
  expect(await User.query().where('email_verified_at', 'is not', null).count()).toBe(1)
  expect([verified.name, unverified.name]).toEqual([expect.any(String), 'Grace'])
})
`

describe("a generated app's own tests", () => {
  let app: FwApp
  beforeAll(async () => {
    app = await generatedApp()
    mkdirSync(join(app.dir, 'node_modules/@faker-js'), { recursive: true })
    symlinkSync(join(checkout, 'node_modules/@faker-js/faker'), join(app.dir, 'node_modules/@faker-js/faker'), 'dir')
    // The development database, migrated (database/schema.d.ts types the columns) and with a row the tests must not see.
    expect((await app.fw(['migrate'])).code).toBe(0)
    const db = createDatabase(undefined, app.dir)
    await db.insertInto('users' as never).values({ name: 'Dev', email: 'dev@example.com', password_hash: 'x' } as never).execute()
    await db.destroy()
    app.write('tests/factory.test.ts', FACTORY_TEST)
    for (const args of [['make:test', 'Feature/HomeTest'], ['make:controller', 'PhotoController', '--resource'], ['make:controller', 'Admin/UserController']]) {
      expect((await app.fw(args)).stderr).toBe('')
    }
  }, 60_000)
  afterAll(() => app?.remove())

  it('type-check, the UserFactory and the tests make:test and make:controller wrote among them', () => {
    expect(typeCheck(app)).toEqual({ output: '', status: 0 })
  })

  it('pass on the tests\' own database, leaving the development one as it was', async () => {
    const run = runOwnTests(app, ['tests/factory.test.ts', 'tests/Feature/HomeTest.test.ts', 'tests/Controllers/PhotoController.test.ts', 'tests/Controllers/Admin/UserController.test.ts'])
    expect(run.output).toMatch(/Tests {2}9 passed \(9\)/)
    expect(run.status).toBe(0)
    const db = createDatabase(undefined, app.dir)
    try {
      expect(await db.selectFrom('users' as never).select('email' as never).execute()).toEqual([{ email: 'dev@example.com' }])
    } finally {
      await db.destroy()
    }
  }, 180_000)
})
