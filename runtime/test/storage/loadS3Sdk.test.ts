import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { FW } from '../support/fwApp.js'

const run = promisify(execFile)
const runtime = join(FW, '../../..')
const folders: string[] = []
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

/** Runs an ES module in a new app folder whose node_modules/fw-runtime is the built package, and returns what it printed. */
async function runInApp(script: string, options: { withDependencies: boolean }): Promise<string> {
  const app = mkdtempSync(join(tmpdir(), 'fw-storage-sdk-'))
  folders.push(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  if (options.withDependencies) {
    // The package as the monorepo links it, the SDK installed beside it.
    mkdirSync(join(app, 'node_modules'))
    symlinkSync(runtime, join(app, 'node_modules/fw-runtime'), 'dir')
  } else {
    // The built package alone, with nothing of the SDK anywhere above the app.
    cpSync(join(runtime, 'package.json'), join(app, 'node_modules/fw-runtime/package.json'))
    cpSync(join(runtime, 'dist'), join(app, 'node_modules/fw-runtime/dist'), { recursive: true })
  }
  writeFileSync(join(app, 'main.js'), script)
  const { stdout } = await run(process.execPath, ['main.js'], { cwd: app, env: { ...process.env, AWS_BUCKET: 'photos', FILESYSTEM_DISK: 'local' } })
  return stdout
}

describe('fw-runtime/storage from the built package', () => {
  it('imports and stores locally in an app without the AWS SDK; the s3 disk then names the npm install line', async () => {
    const stdout = await runInApp(
      [
        "import { storage } from 'fw-runtime/storage'",
        "await storage().put('a.txt', 'local works')",
        'console.log(await storage().get("a.txt"))',
        "const s3 = storage.disk('s3')",
        "try { await s3.put('a.txt', 'x') } catch (error) { console.log(error.message) }",
      ].join('\n'),
      { withDependencies: false },
    )

    expect(stdout).toBe(
      'local works\nThe s3 disk runs on the AWS SDK, and @aws-sdk/client-s3 is not installed: npm install @aws-sdk/client-s3 @aws-sdk/lib-storage @aws-sdk/s3-request-presigner\n',
    )
  })

  it('loads the SDK only when an s3 disk is first used', async () => {
    const stdout = await runInApp(
      [
        "import { createRequire } from 'node:module'",
        "import { storage } from 'fw-runtime/storage'",
        'const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes("@aws-sdk/client-s3")).length > 0',
        "await storage().put('a.txt', 'x')",
        "const s3 = storage.disk('s3')",
        'console.log(loaded())',
        's3.client',
        'console.log(loaded())',
      ].join('\n'),
      { withDependencies: true },
    )

    expect(stdout).toBe('false\ntrue\n')
  })
})
