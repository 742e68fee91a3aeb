// create-fw-app without a terminal: every failure is one line, exit code 1, and nothing written.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { checkoutRoot, cleanEnv, createFwApp, run, runOk } from './support/process.js'

const version = (JSON.parse(readFileSync(join(checkoutRoot, 'package.json'), 'utf8')) as { version: string }).version
const root = mkdtempSync(join(tmpdir(), 'fw-create-cli-'))
let cwd: string
let count = 0
beforeEach(() => {
  cwd = join(root, `case-${++count}`)
  mkdirSync(cwd)
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** create-fw-app with stdin closed, CI unset and no npm user agent. */
function create(args: string[], env: Record<string, string | undefined> = {}, from = cwd) {
  return run('node', [createFwApp, ...args], { cwd: from, env: { CI: undefined, npm_config_user_agent: undefined, ...env } })
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(`.git/`))
    .sort()
}

function expectOneLineFailure(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(result.code).toBe(1)
  const lines = result.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(pattern)
}

describe('create-fw-app without a terminal', () => {
  it('--help prints the usage and every option, and exits 0', async () => {
    const result = await create(['--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage: create-fw-app [dir]')
    for (const option of ['--template', '--yes', '--overwrite', '--no-install', '--no-git', '--pm', '--runtime', '--version']) {
      expect(result.stdout).toContain(option)
    }
    expect(readdirSync(cwd)).toEqual([])
  })

  it('--version prints the package version', async () => {
    const result = await create(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(version)
  })

  it('refuses a non-empty directory and leaves it as it was', async () => {
    mkdirSync(join(cwd, 'taken'))
    writeFileSync(join(cwd, 'taken', 'notes.txt'), 'mine')
    const result = await create(['taken', '--no-install'])
    expectOneLineFailure(result, /taken is not empty.*--overwrite/)
    expect(readdirSync(join(cwd, 'taken'))).toEqual(['notes.txt'])
    expect(readdirSync(cwd)).toEqual(['taken'])
  })

  it('refuses an invalid package name, suggests a valid one, and writes nothing', async () => {
    const result = await create(['My App', '--no-install'])
    expectOneLineFailure(result, /"My App" is not a valid npm package name.*create-fw-app my-app/)
    expect(readdirSync(cwd)).toEqual([])
  })

  it('refuses to run on a Node.js older than 22, in one line, writing nothing', async () => {
    // Node 20 as create-fw-app sees it: the version it reads is made to say 20.19.0.
    const asNode20 = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.19.0"})'
    const result = await run('node', ['--import', asNode20, createFwApp, 'app'], { cwd, env: { CI: undefined } })
    expectOneLineFailure(result, /^✖ Fw needs Node\.js 22 or newer, and this is Node\.js 20\.19\.0: install the current LTS \(24\)/)
    expect(readdirSync(cwd)).toEqual([])
  })

  it('refuses an unknown template, an unknown option, a bad --pm and two directories', async () => {
    expectOneLineFailure(await create(['app', '--template', 'vue']), /Unknown template "vue": choose api or minimal/)
    expectOneLineFailure(await create(['app', '--frobnicate']), /Unknown option --frobnicate/)
    expectOneLineFailure(await create(['app', '--pm', 'bun']), /Unknown package manager "bun"/)
    expectOneLineFailure(await create(['a', 'b']), /Expected one directory, got 2/)
    expect(readdirSync(cwd)).toEqual([])
  })

  it('says which option or value was meant when one is mistyped', async () => {
    expectOneLineFailure(await create(['app', '--templte', 'api']), /Unknown option --templte\. Did you mean "--template"\? \(see create-fw-app --help\)/)
    expectOneLineFailure(await create(['app', '--no-instal']), /Unknown option --no-instal\. Did you mean "--no-install"\?/)
    expectOneLineFailure(await create(['app', '--template', 'minmal']), /Unknown template "minmal": choose api or minimal\. Did you mean "minimal"\?/)
    expectOneLineFailure(await create(['app', '--pm', 'pnmp']), /Unknown package manager "pnmp": choose npm or pnpm or yarn\. Did you mean "pnpm"\?/)
    expect(readdirSync(cwd)).toEqual([])
  })

  it('never waits for input when stdin is a pipe that stays open', async () => {
    const child = spawn('node', [createFwApp, 'piped', '--no-install', '--no-git'], {
      cwd,
      env: cleanEnv({ CI: undefined }),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    child.stdin.destroy()
    expect(code).toBe(0)
    expect(existsSync(join(cwd, 'piped', 'package.json'))).toBe(true)
  })

  it('writes the api starter as plain files: name substituted, .gitignore renamed, .env with fresh keys', async () => {
    mkdirSync(join(cwd, 'inner'))
    const result = await create(['../shop-api', '--no-install', '--no-git'], {}, join(cwd, 'inner'))
    expect(result.code).toBe(0)
    const dir = join(cwd, 'shop-api')
    const template = join(checkoutRoot, 'template', 'api')

    const packageJson = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    expect(packageJson.name).toBe('shop-api')
    expect(packageJson.dependencies['fw-runtime']).toMatch(/^file:vendor\/fw-runtime-[\d.]+\.tgz$/)
    expect(existsSync(join(dir, packageJson.dependencies['fw-runtime'].slice('file:'.length)))).toBe(true)
    expect(existsSync(join(dir, '_gitignore'))).toBe(false)
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(readFileSync(join(template, '_gitignore'), 'utf8'))
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/^# shop-api\n/)

    const env = readFileSync(join(dir, '.env'), 'utf8')
    expect(env).toMatch(/^APP_NAME=shop-api$/m)
    expect(env).toMatch(/^APP_KEY=base64:[A-Za-z0-9+/]{43}=$/m)
    expect(env).toMatch(/^API_KEY=[0-9a-f]{48}$/m)
    // Error details are for the development server, which turns them on by itself; a copied .env never does.
    expect(env).toMatch(/^APP_ENV=local$/m)
    expect(env).not.toMatch(/^APP_DEBUG=/m)

    // Everything else is the starter byte for byte: no template engine touched it.
    const changed = new Set(['package.json', 'README.md', '.env.example', '_gitignore'])
    for (const file of files(template).filter((file) => !changed.has(file))) {
      expect(readFileSync(join(dir, file)).equals(readFileSync(join(template, file))), file).toBe(true)
    }
    expect(result.stdout).toContain('cd ../shop-api')
    expect(result.stdout).toContain('npm install')
    // Without the dependencies, the starter's tables are a step of the user's, before the first npm run dev.
    expect(result.stdout).toMatch(/npm install\n\s+npm run migrate\s.*\n\s+npm run dev/)
    expect(result.stdout).toContain('npm run dev')

    // A second app gets other keys.
    await runOk('node', [createFwApp, 'second', '--no-install', '--no-git'], { cwd })
    const second = readFileSync(join(cwd, 'second', '.env'), 'utf8')
    expect(second.match(/^API_KEY=.*$/m)![0]).not.toBe(env.match(/^API_KEY=.*$/m)![0])
    expect(second.match(/^APP_KEY=.*$/m)![0]).not.toBe(env.match(/^APP_KEY=.*$/m)![0])
  })

  it('writes the minimal starter with GET / only', async () => {
    const result = await create(['tiny', '--template', 'minimal', '--no-install', '--no-git'])
    expect(result.code).toBe(0)
    const routes = readFileSync(join(cwd, 'tiny', 'routes', 'web.ts'), 'utf8')
    expect(routes.match(/Route\.\w+\(/g)).toEqual(['Route.get('])
    expect(routes).toContain("Route.get('/'")
    // No migrations, so no database to make.
    expect(result.stdout).not.toContain('migrate')
  })

  it('makes a git repository with one commit holding every file but .env', async () => {
    const result = await create(['versioned', '--no-install'], {
      GIT_AUTHOR_NAME: 'Fw Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Fw Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    })
    expect(result.code).toBe(0)
    const dir = join(cwd, 'versioned')
    const log = await runOk('git', ['log', '--format=%s'], { cwd: dir })
    expect(log.stdout.trim()).toBe('Initial commit from create-fw-app')
    const tracked = (await runOk('git', ['ls-files'], { cwd: dir })).stdout.trim().split('\n').sort()
    expect(tracked).toEqual(files(dir).filter((file) => file !== '.env'))
  })

  it('--overwrite empties the directory but keeps its .git, and then does not make a new repository', async () => {
    const dir = join(cwd, 'existing')
    mkdirSync(join(dir, '.git'), { recursive: true })
    writeFileSync(join(dir, '.git', 'marker'), 'keep me')
    writeFileSync(join(dir, 'old.txt'), 'remove me')
    const result = await create(['existing', '--overwrite', '--no-install'])
    expect(result.code).toBe(0)
    expect(existsSync(join(dir, 'old.txt'))).toBe(false)
    expect(readFileSync(join(dir, '.git', 'marker'), 'utf8')).toBe('keep me')
    expect(existsSync(join(dir, 'package.json'))).toBe(true)
    expect(readdirSync(cwd)).toEqual(['existing'])
  })

  it('an empty directory, or one holding only .git, needs no --overwrite', async () => {
    mkdirSync(join(cwd, 'empty'))
    mkdirSync(join(cwd, 'only-git', '.git'), { recursive: true })
    expect((await create(['empty', '--no-install', '--no-git'])).code).toBe(0)
    expect((await create(['only-git', '--no-install', '--no-git'])).code).toBe(0)
    expect(existsSync(join(cwd, 'empty', 'routes', 'web.ts'))).toBe(true)
    expect(existsSync(join(cwd, 'only-git', 'routes', 'web.ts'))).toBe(true)
  })

  it('next steps follow the package manager: --pm, else npm_config_user_agent', async () => {
    const pnpm = await create(['with-pnpm', '--pm', 'pnpm', '--no-install', '--no-git'])
    expect(pnpm.stdout).toContain('pnpm install')
    expect(pnpm.stdout).toContain('pnpm dev')
    const yarn = await create(['with-yarn', '--no-install', '--no-git'], {
      npm_config_user_agent: 'yarn/1.22.22 npm/? node/v20.20.0 linux x64',
    })
    expect(yarn.stdout).toContain('yarn dev')
    expect(yarn.stdout).toContain('yarn test')
  })

  it('--runtime writes the given fw-runtime spec as it is', async () => {
    const result = await create(['pinned', '--runtime', '^9.8.7', '--no-install', '--no-git'])
    expect(result.code).toBe(0)
    const packageJson = JSON.parse(readFileSync(join(cwd, 'pinned', 'package.json'), 'utf8'))
    expect(packageJson.dependencies['fw-runtime']).toBe('^9.8.7')
    expect(existsSync(join(cwd, 'pinned', 'vendor'))).toBe(false)
  })
})
