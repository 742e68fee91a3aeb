import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { restartsFor, watchApp } from '../../src/cli/watchApp.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fw-watch-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('watchApp', () => {
  it('puts watchers on the folders of the app\'s code only, never in the ignored folders', () => {
    for (const folder of [
      'App/Controllers/Admin',
      'routes',
      'bootstrap',
      'database/migrations',
      'public/css',
      'storage/uploads/2026',
      'storage/logs',
      'public/uploads/avatars',
      'node_modules/kysely/dist',
      'dist/App',
      'build',
      'coverage/lcov',
      '.git/objects/ab',
      '.idea',
      'logs',
      'tmp',
      'tests/Controllers',
    ]) {
      mkdirSync(join(dir, folder), { recursive: true })
    }

    const watcher = watchApp(dir, () => {})
    try {
      expect(watcher.folders()).toEqual([
        '.',
        'App',
        'App/Controllers',
        'App/Controllers/Admin',
        'bootstrap',
        'database',
        'database/migrations',
        'public',
        'public/css',
        'routes',
      ])
    } finally {
      watcher.close()
    }
  })
})

describe('restartsFor', () => {
  it.each([
    'routes/web.ts',
    'App/Controllers/HomeController.ts',
    'App/Views/home.tsx',
    'bootstrap/app.ts',
    'public/index.ts',
    'database/migrations/20260101000000_create_posts_table.ts',
    'config/queue.mjs',
    'lib/legacy.cjs',
    'lib/types.mts',
    'lib/old.js',
    'package.json',
    'tsconfig.json',
    '.env',
  ])('restarts for %s', (path) => {
    expect(restartsFor(path)).toBe(true)
  })

  it.each([
    'storage/uploads/data.json',
    'storage/app/script.ts',
    'public/uploads/export.json',
    'node_modules/kysely/dist/index.js',
    'dist/routes/web.js',
    'build/index.js',
    'coverage/coverage-final.json',
    '.git/HEAD',
    '.vscode/settings.json',
    'logs/server.json',
    'tmp/cache.json',
    'tests/home.test.ts',
    'App/Controllers/HomeController.test.ts',
    'App/Controllers/HomeController.spec.ts',
    'database/schema.d.ts',
    'database/database.sqlite',
    'database/database.sqlite-wal',
    'database/database.sqlite-journal',
    'app.log',
    'public/css/app.css',
    'public/logo.png',
    'routes/.web.ts.swp',
    'routes/web.ts~',
    'routes/.#web.ts',
    'routes/#web.ts#',
    'routes/web.ts___jb_tmp___',
    'App/4913',
    '.env.example',
    '.env.local',
    'routes/.env',
    'README.md',
  ])('does not restart for %s', (path) => {
    expect(restartsFor(path)).toBe(false)
  })
})
