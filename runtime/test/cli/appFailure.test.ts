import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readAppFailure } from '../../src/cli/appFailure.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fw-failure-'))
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Runs `node [--import tsx] <entry>` in the folder, with these files, and returns its stderr and exit code. */
function run(entry: string, files: Record<string, string>): { stderr: string; code: number | null } {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  const result = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), entry], { cwd: dir, encoding: 'utf8' })
  return { stderr: result.stderr, code: result.status }
}

describe('readAppFailure: why the app under fw serve stopped, from what Node printed', () => {
  it('a TypeScript syntax error, as esbuild reports it: the file, its line, and its column counted from 1', () => {
    const { stderr, code } = run('index.ts', {
      'index.ts': "import { x } from './App/x.js'\nconsole.log(x)\n",
      'App/x.ts': 'export const x: number = (1 +\n',
    })
    expect(readAppFailure(stderr, dir, code)).toMatchObject({ message: 'SyntaxError: Unexpected end of file', file: 'App/x.ts', line: 2, column: 1 })
  })

  it('a JavaScript syntax error, as Node prints it: the column is where its caret is', () => {
    const { stderr, code } = run('index.js', { 'index.js': "import { x } from './lib/x.js'\nconsole.log(x)\n", 'lib/x.js': 'export const x = {\n  a: 1,,\n}\n' })
    expect(readAppFailure(stderr, dir, code)).toMatchObject({ message: "SyntaxError: Unexpected token ','", file: 'lib/x.js', line: 2, column: 8 })
  })

  it('an error thrown while the app starts: its message, and the first frame in the app\'s own code', () => {
    const { stderr, code } = run('index.ts', {
      'index.ts': "import { boot } from './bootstrap/app.js'\n\nboot()\n",
      'bootstrap/app.ts': "export function boot(): void {\n  const settings = undefined as unknown as { port: number }\n  console.log(settings.port)\n}\n",
    })
    expect(code).toBe(1)
    expect(readAppFailure(stderr, dir, code)).toMatchObject({
      message: expect.stringMatching(/^TypeError: Cannot read properties of undefined \(reading 'port'\)/),
      file: 'bootstrap/app.ts',
      line: 3,
      column: 24,
    })
  })

  it('a process that exits without printing an error: its exit code, and no place', () => {
    const { stderr, code } = run('index.ts', { 'index.ts': "console.error('bye')\nprocess.exit(3)\n" })
    expect(readAppFailure(stderr, dir, code)).toEqual({ message: 'The app exited with code 3', output: 'bye\n' })
  })
})
