import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect } from 'vitest'

/**
 * Lays an application's files from `fixture` (a folder of tests/fixtures/) over an app whose generators ran first,
 * and has routes/web.ts import the fixture's routes file. A migration of the fixture replaces the one the generator
 * wrote for it, which carries the time it was made in its name (`<time>_create_posts_table.ts`).
 *
 * @example
 * ```ts
 * copyFixture(app.dir, join(checkoutRoot, 'tests/fixtures/blog'), 'blog')
 * ```
 */
export function copyFixture(appDir: string, fixture: string, routes: string): void {
  const migrations = join(appDir, 'database/migrations')
  for (const file of readdirSync(fixture, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue
    let target = join(appDir, file)
    if (file.startsWith('database/migrations/')) {
      const generated = readdirSync(migrations).filter((name) => name.endsWith(`_${file.split('/').at(-1)}`))
      expect(generated, file).toHaveLength(1)
      target = join(migrations, generated[0]!)
    }
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(join(fixture, file), target)
  }
  const web = join(appDir, 'routes/web.ts')
  writeFileSync(web, `${readFileSync(web, 'utf8')}import './${routes}.js'\n`)
}
