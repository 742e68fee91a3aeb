// The published path, as a user types it: `npm create fw-app@latest my-app` against a registry
// that holds this checkout's create-fw-app and fw-runtime.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkoutRoot, run, runOk, startServer } from './support/process.js'
import { startRegistry, type Registry } from './support/registry.js'

const version = (JSON.parse(readFileSync(join(checkoutRoot, 'package.json'), 'utf8')) as { version: string }).version

describe('npm create fw-app@latest from a registry', () => {
  let registry: Registry
  let npmEnv: Record<string, string>
  const packedFiles: Record<string, string[]> = {}
  beforeAll(async () => {
    registry = await startRegistry(['fw-runtime', 'create-fw-app'])
    const packs = join(registry.dir, 'packs')
    mkdirSync(packs)
    for (const folder of [join(checkoutRoot, 'runtime'), checkoutRoot]) {
      const packed = await runOk('npm', ['pack', folder, '--pack-destination', packs, '--ignore-scripts', '--json'], { cwd: packs })
      const [pack] = JSON.parse(packed.stdout) as { name: string; filename: string; files: { path: string }[] }[]
      if (!pack) throw new Error(`npm pack ${folder} wrote nothing`)
      packedFiles[pack.name] = pack.files.map((file) => file.path)
      await registry.publish(join(packs, pack.filename))
    }
    // A fresh npm cache: nothing of an earlier run (or of the normal registry) is reused.
    npmEnv = { npm_config_registry: registry.url, npm_config_yes: 'true', npm_config_cache: join(registry.dir, 'npm-cache'), CI: 'true' }
  })
  afterAll(async () => {
    await registry?.stop()
  })

  it('publishes create-fw-app as dist/index.js and the starters (no runtime/), and fw-runtime with its build', async () => {
    expect(packedFiles['create-fw-app']).toContain('dist/index.js')
    expect(packedFiles['create-fw-app']).toContain('template/api/_gitignore')
    expect(packedFiles['create-fw-app']).toContain('template/minimal/public/index.ts')
    expect(packedFiles['create-fw-app']!.filter((file) => !/^(dist|template)\/|^package\.json$|^README\.md$/.test(file))).toEqual([])
    expect(packedFiles['fw-runtime']).toContain('dist/index.d.ts')

    const create = JSON.parse((await runOk('npm', ['view', 'create-fw-app', '--json'], { cwd: registry.dir, env: npmEnv })).stdout)
    expect(create.version).toBe(version)
    expect(create.bin).toEqual({ 'create-fw-app': 'dist/index.js' })
    const runtime = JSON.parse((await runOk('npm', ['view', 'fw-runtime', '--json'], { cwd: registry.dir, env: npmEnv })).stdout)
    expect(runtime.version).toBe(version)
  })

  it('creates, installs and runs an application that depends on fw-runtime ^version', async () => {
    const work = join(registry.dir, 'work')
    mkdirSync(work)
    const created = await run('npm', ['create', 'fw-app@latest', 'my-app'], { cwd: work, env: npmEnv, timeout: 900_000 })
    expect(created.code, `${created.stdout}\n${created.stderr}`).toBe(0)
    expect(created.stdout).toMatch(/Installed dependencies with npm in [\d.]+s/)
    expect(created.stdout).toContain('cd my-app')

    const app = join(work, 'my-app')
    const packageJson = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
    expect(packageJson.name).toBe('my-app')
    expect(packageJson.dependencies['fw-runtime']).toBe(`^${version}`)
    expect(existsSync(join(app, 'vendor'))).toBe(false)
    expect(JSON.parse(readFileSync(join(app, 'node_modules', 'fw-runtime', 'package.json'), 'utf8')).version).toBe(version)

    // The generators read their stubs from the installed package, and what they write type-checks in the app.
    const made = await runOk('npx', ['fw', 'make:controller', 'Admin/ReportController'], { cwd: app, env: npmEnv })
    expect(made.stdout).toBe('Created App/Controllers/Admin/ReportController.ts\nCreated tests/Controllers/Admin/ReportController.test.ts\n')
    await runOk('npx', ['tsc', '--noEmit'], { cwd: app, env: npmEnv })

    const server = await startServer('node', ['--conditions=development', '--import', 'tsx', 'public/index.ts'], { cwd: app })
    try {
      const response = await fetch(`${server.url}/`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ name: `Fw ${version}`, status: 'running', message: expect.any(String) })
    } finally {
      await server.stop()
    }
  })
})
