import { cpSync, mkdirSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { defineConfig } from 'tsup'
import { keepSourcesInPackage } from './build/keepSourcesInPackage.js'

/** What dist/docs/ holds of swagger-ui-dist: what GET /docs loads, and the licence that goes with it. */
const DOCS_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt']

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing.ts',
    migrations: 'src/migrations.ts',
    auth: 'src/auth.ts',
    dash: 'src/dash.ts',
    queue: 'src/queue.ts',
    mail: 'src/mail.ts',
    schedule: 'src/schedule.ts',
    client: 'src/client.ts',
    authorization: 'src/authorization.ts',
    console: 'src/console.ts',
    storage: 'src/storage.ts',
    cache: 'src/cache.ts',
    redis: 'src/redis.ts',
    'cli/fw': 'src/cli/fw.ts',
  },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', testing: 'src/testing.ts', migrations: 'src/migrations.ts', auth: 'src/auth.ts', dash: 'src/dash.ts', queue: 'src/queue.ts', mail: 'src/mail.ts', schedule: 'src/schedule.ts', client: 'src/client.ts', authorization: 'src/authorization.ts', console: 'src/console.ts', cache: 'src/cache.ts', redis: 'src/redis.ts', storage: 'src/storage.ts' } },
  clean: true,
  sourcemap: true,
  // kysely ships ~400 ES modules that take Node ~140 ms to load one by one; bundled they load in ~10 ms.
  // awilix is bundled so that its eager import of fast-glob, used only by loadModules() that Fw never
  // calls, can be left out: fast-glob alone took half of fw-runtime's import time (cold start).
  // pluralize (CommonJS, a devDependency) is bundled into the fw command, the one place that uses it: an
  // application installs nothing more, and fw --help starts as fast as with it external (measured).
  noExternal: ['kysely', 'awilix', 'pluralize'],
  esbuildPlugins: [
    {
      name: 'no-fast-glob',
      setup(build) {
        build.onResolve({ filter: /^fast-glob$/ }, () => ({ path: 'fast-glob', namespace: 'no-fast-glob' }))
        build.onLoad({ filter: /.*/, namespace: 'no-fast-glob' }, () => ({
          contents: 'export default { sync() { throw new Error("awilix loadModules() is not available in fw-runtime") } }',
        }))
      },
    },
  ],
  async onSuccess() {
    // The generators' stubs, read at run time from dist/generators/<command>/stubs (src/cli/generate/stub.ts).
    for (const generator of readdirSync('../generators')) {
      cpSync(`../generators/${generator}/stubs`, `dist/generators/${generator}/stubs`, { recursive: true })
    }
    // Stack traces under source maps name only files an installed fw-runtime has: its src/, and copies in dist/ of
    // the code it bundles (kysely, awilix, pluralize, the generators).
    keepSourcesInPackage('dist')
    // GET /docs serves Swagger UI from the package's own files (src/openapi/docsPage.ts): the three the page loads, and
    // their licence, copied from swagger-ui-dist, a devDependency: an app installs neither its 12 MB nor its postinstall.
    const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
    mkdirSync('dist/docs', { recursive: true })
    for (const file of DOCS_FILES) cpSync(join(swaggerUi, file), `dist/docs/${file}`)
  },
})
