// Under fw serve (tsx turns source maps on), every file a stack trace names exists in the installed application:
// fw-runtime's frames name its shipped TypeScript sources, those of the kysely it bundles the copy of kysely's files
// in its dist/bundled/ (runtime/build/keepSourcesInPackage.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { installedApp } from './support/installedApp.js'

/** The file of each `at … (file:line:col)` or `at file:line:col` frame, Node's own modules left out. */
function framesFiles(stack: string[]): string[] {
  return stack
    .map((line) => /^at (?:.* \()?(.+?):\d+:\d+\)?$/.exec(line)?.[1])
    .filter((file): file is string => file !== undefined && !file.startsWith('node:'))
    .map((file) => (file.startsWith('file://') ? fileURLToPath(file) : file))
}

describe('stack traces under fw serve', () => {
  it('name only files that exist, through fw-runtime and the kysely it bundles', async () => {
    const app = await installedApp()
    // A route that fails inside a kysely query, added as a user would.
    const routes = join(app.dir, 'routes/web.ts')
    const source = readFileSync(routes, 'utf8')
    expect(source).toMatch(/^import \{ Route \} from 'fw-runtime'$/m)
    writeFileSync(
      routes,
      `${source.replace("import { Route } from 'fw-runtime'", "import { Route, db } from 'fw-runtime'")}\nRoute.get('/broken', async () => {\n  const rows = await db().selectFrom('no_such_table').selectAll().execute()\n  return { rows }\n})\n`,
    )

    const server = await app.start(['npx', 'fw', 'serve'])
    let body: { error: string; stack: string[] }
    try {
      const response = await fetch(`${server.url}/broken`, { headers: { Accept: 'application/json' } })
      expect(response.status).toBe(500)
      body = (await response.json()) as typeof body
    } finally {
      await server.stop()
    }

    expect(body.error).toContain('no such table: no_such_table')
    const files = framesFiles(body.stack)
    // The trace passes through the application, fw-runtime's sources and the kysely it bundles.
    expect(files, body.stack.join('\n')).toContain(routes)
    expect(files.some((file) => file.startsWith(join(app.dir, 'node_modules/fw-runtime/src/')) && file.endsWith('.ts'))).toBe(true)
    expect(files.some((file) => file.startsWith(join(app.dir, 'node_modules/fw-runtime/dist/bundled/kysely/')))).toBe(true)
    expect(files.filter((file) => !isAbsolute(file) || !existsSync(file))).toEqual([])
  })
})
