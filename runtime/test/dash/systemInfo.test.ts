import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { systemInfo } from '../../src/dash/systemInfo.js'

const runtimeVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

describe('systemInfo', () => {
  const folder = mkdtempSync(join(tmpdir(), 'fw-system-'))
  const db = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  afterEach(() => vi.unstubAllEnvs())
  afterAll(async () => {
    await db.destroy()
    rmSync(folder, { recursive: true, force: true })
  })

  const facts = (root = folder) => Object.fromEntries(systemInfo(db, root).map(({ label, value }) => [label, value]))

  it("reads the application's name and version from its package.json at run time", () => {
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'blog', version: '1.2.3' }))
    expect(facts()).toMatchObject({ Application: 'blog 1.2.3', 'fw-runtime': runtimeVersion, 'Node.js': process.version, Database: 'SQLite' })
    expect(facts()['Uptime']).toMatch(/^\d+ (s|min|h \d+ min|d \d+ h)$/)
  })

  it('names an application without a readable package.json "unnamed"', () => {
    expect(facts(join(folder, 'missing')).Application).toBe('unnamed')
  })

  it('says production under fw start, whose NODE_ENV wins over a .env that says local', () => {
    vi.stubEnv('APP_ENV', 'local')
    vi.stubEnv('NODE_ENV', 'production')
    expect(facts().Environment).toBe('production')
    vi.stubEnv('NODE_ENV', 'development')
    expect(facts().Environment).toBe('local')
  })
})
