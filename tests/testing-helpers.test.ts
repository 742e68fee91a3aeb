// fw-runtime/testing's helpers and the database rules in an installed application, from dist/: a test of the app's
// own signs in with actingAs (session and token), checks rows and counts queries, validates with unique/exists; the
// app's npm test and tsc --noEmit pass.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { installedApp, type InstalledApp } from './support/installedApp.js'

const HELPERS_TEST = `import { beforeEach, expect, it } from 'vitest'
import { z } from 'zod'
import { exists, unique } from 'fw-runtime'
import { expectDatabaseHas, expectDatabaseMissing, expectQueries, refreshDatabase } from 'fw-runtime/testing'
import { User } from '#app/Models/User.js'
import { createClient } from './app.js'

beforeEach(refreshDatabase)

// The first test loads the app and hashes the factory's password: more than vitest's 5 s on a busy machine.
it('signs a user in without a password, by session and by token', { timeout: 30_000 }, async () => {
  const ada = await User.factory().create({ email: 'ada@example.com' })
  const browser = (await createClient()).actingAs(ada)
  const me = await browser.get('/me', { headers: { Accept: 'application/json' } })
  expect([me.status, (await me.json()).user.email]).toEqual([200, 'ada@example.com'])

  const api = (await createClient()).actingAs(ada, 'token')
  expect((await api.post('/logout')).status).toBe(200)
  await expectDatabaseMissing('access_tokens', { user_id: ada.id, kind: 'api' })
  await expectDatabaseHas('access_tokens', { user_id: ada.id, kind: 'session' })
})

it('counts the queries of the work, and lists them when the count is wrong', async () => {
  const ada = await User.factory().create()
  await expectQueries(1, () => User.find(ada.id))
  const client = (await createClient()).actingAs(ada, 'token')
  await expect(expectQueries(0, () => client.get('/me'))).rejects.toThrow(/^Expected 0 queries, \\d+ ran:\\n  1\\. select /)
})

it('validates against the database', async () => {
  const ada = await User.factory().create({ email: 'ada@example.com' })
  const schema = z.object({ email: z.email().check(unique('users', 'email')), id: z.number().check(exists('users', 'id')) })
  const taken = await schema.safeParseAsync({ email: 'ada@example.com', id: 99 })
  expect(taken.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['email', 'The email has already been taken.'],
    ['id', 'The selected id is invalid.'],
  ])
  expect((await schema.safeParseAsync({ email: 'grace@example.com', id: ada.id })).success).toBe(true)
})
`

describe('fw-runtime/testing helpers in an installed app', () => {
  let app: InstalledApp
  beforeAll(async () => {
    app = await installedApp({ template: 'api' })
    await app.runOk('npx', ['fw', 'make:auth'])
  })

  it("runs the app's own test of actingAs, expectDatabaseHas/Missing, expectQueries and the rules; tsc --noEmit passes", async () => {
    writeFileSync(join(app.dir, 'tests/helpers.test.ts'), HELPERS_TEST)
    const tests = await app.run('npx', ['vitest', 'run', 'tests/helpers.test.ts'])
    expect(tests.code, `${tests.stdout}\n${tests.stderr}`).toBe(0)
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/tests\/helpers\.test\.ts \(3 tests\)/)
    await app.runOk('npx', ['tsc', '--noEmit'])
  })
})
