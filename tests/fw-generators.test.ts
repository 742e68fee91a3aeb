// Every generator in turn on one installed api app: after each, the app still type-checks and passes its tests.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { installedApp, type InstalledApp } from './support/installedApp.js'

let app: InstalledApp

beforeAll(async () => {
  app = await installedApp({ template: 'api' })
})

/** `npx fw …` in the app, which must succeed. */
const fw = (...args: string[]) => app.runOk('npx', ['fw', ...args])

async function stillGreen(): Promise<void> {
  await app.runOk('npx', ['tsc', '--noEmit'])
  const tests = stripVTControlCharacters((await app.runOk('npm', ['test'])).stdout)
  expect(tests).toMatch(/Tests +\d+ passed/)
  expect(tests).not.toMatch(/failed/)
}

describe('fw generators on a scaffolded app', () => {
  it('make:controller writes a controller and a test that pass', async () => {
    const result = await fw('make:controller', 'ReportController')
    expect(result.stdout).toBe('Created App/Controllers/ReportController.ts\nCreated tests/Controllers/ReportController.test.ts\n')
    await stillGreen()
  })

  it('make:controller --resource in a subfolder', async () => {
    await fw('make:controller', 'Admin/ReportController', '--resource')
    expect(existsSync(join(app.dir, 'App/Controllers/Admin/ReportController.ts'))).toBe(true)
    const tests = await app.runOk('npx', ['vitest', 'run', 'tests/Controllers'])
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/Tests +6 passed \(6\)/)
    await stillGreen()
  })

  it('make:model -m, then migrate, status and rollback on the embedded SQLite', async () => {
    await fw('make:model', 'Article', '-m')
    await stillGreen()

    expect((await fw('migrate')).stdout).toMatch(/^Migrated  \d{14}_create_articles_table  \(\d+ ms\)\n$/)
    expect(existsSync(join(app.dir, 'database/database.sqlite'))).toBe(true)
    expect((await fw('migrate:status')).stdout).toMatch(/create_articles_table +1 +Ran/)
  })

  it('make:migration, the alter-table and the empty stubs', async () => {
    await fw('make:migration', 'add_title_to_articles_table')
    await fw('make:migration', 'backfill_article_titles')
    await stillGreen()

    const migrated = await fw('migrate')
    expect(migrated.stdout.trim().split('\n')).toHaveLength(2)
    expect((await fw('migrate:status')).stdout).toMatch(/add_title_to_articles_table +2 +Ran\n.*backfill_article_titles +2 +Ran/)
    expect((await fw('migrate:rollback')).stdout).toMatch(/^Rolled back  \d+_backfill_article_titles .*\nRolled back  \d+_add_title_to_articles_table /)
    expect((await fw('migrate:fresh')).stdout.trim().split('\n')).toHaveLength(3)
    expect((await fw('migrate:reset')).stdout.trim().split('\n')).toHaveLength(3)
    expect(readdirSync(join(app.dir, 'database/migrations')).filter((file) => file.endsWith('.ts'))).toHaveLength(3)
  })

  it('make:middleware, make:test and make:seeder write code whose tests pass; db:seed runs the seeder', async () => {
    await fw('make:middleware', 'EnsureTeamMember')
    await fw('make:test', 'Feature/HomeTest')
    await fw('make:seeder', 'DatabaseSeeder')
    await stillGreen()
    const tests = await app.runOk('npx', ['vitest', 'run', 'tests/Middleware', 'tests/Feature'])
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/Tests +2 passed \(2\)/)
    expect((await fw('db:seed')).stdout).toMatch(/^Seeded {2}DatabaseSeeder {2}\(\d+ ms\)\n$/)
  })

  it('route:list reads the app routes, and fw serve answers', async () => {
    const routes = await fw('route:list')
    expect(routes.stdout).toMatch(/^GET +\/health +\S*HealthController@/m)

    const server = await app.start(['npx', 'fw', 'serve'])
    try {
      const response = await fetch(`${server.url}/health`)
      expect(response.status).toBe(200)
    } finally {
      await server.stop()
    }
  })
})
