// The path of a new user, step by step, on whichever Node runs the suite: CI runs this file on Node 24
// with the whole suite, and again on Node 22 (see .ci/run). Every step must exit 0 and no native
// module may abort or print an assertion (better-sqlite3 12 did, on Node 24).
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningApp, RunResult } from './support/process.js'
import { installedApp, type InstalledApp } from './support/installedApp.js'

let app: InstalledApp
let server: RunningApp | undefined

beforeAll(async () => {
  app = await installedApp({ template: 'api' })
})
afterAll(() => server?.stop())

/** Runs a step in the app; it must exit 0 and print no native assertion or crash. */
async function step(command: string, ...args: string[]): Promise<string> {
  const result: RunResult = await app.runOk(command, args)
  const output = stripVTControlCharacters(result.stdout + result.stderr)
  expect(output).not.toMatch(/Assertion failed|FATAL ERROR|Segmentation fault|node::/)
  return output
}

describe(`a new application on Node ${process.versions.node}`, () => {
  it('runs on the Node of this test run', async () => {
    expect(await step('node', '--version')).toBe(`v${process.versions.node}\n`)
  })

  it('make:model -m, migrate, migrate:status and migrate:rollback', async () => {
    await step('npx', 'fw', 'make:model', 'Post', '-m')
    expect(await step('npx', 'fw', 'migrate')).toMatch(/Migrated {2}\d{14}_create_posts_table/)
    // Batch 2: create-fw-app ran the starter's own (its tasks table) as batch 1.
    expect(await step('npx', 'fw', 'migrate:status')).toMatch(/create_tasks_table +1 +Ran\n.*create_posts_table +2 +Ran/)
    expect(await step('npx', 'fw', 'migrate:rollback')).toMatch(/Rolled back {2}\d{14}_create_posts_table/)
    expect(await step('npx', 'fw', 'migrate:status')).toMatch(/create_posts_table +Pending/)
  })

  it('make:auth, migrate, the app\'s own tests, tsc --noEmit', async () => {
    await step('npx', 'fw', 'make:auth')
    expect(await step('npx', 'fw', 'migrate')).toMatch(/create_users_table/)
    const tests = await step('npm', 'test')
    expect(tests).toMatch(/Tests +\d+ passed/)
    expect(tests).not.toMatch(/(Tests|Test Files) .*failed/)
    await step('npx', 'tsc', '--noEmit')
  })

  it('builds, and the built app answers', async () => {
    await step('npm', 'run', 'build')
    server = await app.start(['node', 'dist/public/index.js'])
    const hello = await fetch(`${server.url}/hello`)
    expect(hello.status).toBe(200)
    expect(await hello.json()).toEqual({ message: 'Hello, World!' })
    // Routes that write and read the database (the migrated users table) through make:auth's JSON API.
    const json = { 'Content-Type': 'application/json', Accept: 'application/json' }
    const credentials = { name: 'Ada', email: 'ada@example.com', password: 'a long passphrase', password_confirmation: 'a long passphrase' }
    const registered = await fetch(`${server.url}/register`, { method: 'POST', headers: json, body: JSON.stringify(credentials) })
    // 202: with email verification, registration signs no one in and answers a taken email alike.
    expect(registered.status).toBe(202)
    const login = await fetch(`${server.url}/login`, { method: 'POST', headers: json, body: JSON.stringify(credentials) })
    expect(login.status).toBe(200)
    const { token } = (await login.json()) as { token: string }
    const me = await fetch(`${server.url}/me`, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } })
    expect(await me.json()).toEqual({ user: { id: expect.any(Number), name: 'Ada', email: 'ada@example.com' }, email_verified_at: null })
    expect(server.output()).not.toMatch(/Assertion failed|node::/)
  })
})
