import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Command } from './Command.js'
import { loadAppRoutes, ROUTES } from './loadAppRoutes.js'
import { table } from './table.js'

const CONTROLLERS = 'App/Controllers'

export const routeList: Command = {
  name: 'route:list',
  summary: 'List the routes: method, domain, path, name, handler and middleware',
  usage: 'route:list',
  details: [
    `Sets the app up as its server does (bootstrap/app.ts configure), then loads ${ROUTES} and the files it imports.`,
    'The middleware of a route: router.use middleware for every path, then that of the path patterns whose paths it',
    'takes (router.use(\'/api/*\', …); shown with its pattern when it takes only some of the route\'s paths), then its own.',
    `A controller in a folder of ${CONTROLLERS} is shown with it: Api/UserController@store.`,
    'A Domain column, when a route has one (Route.domain(\'{account}.example.com\')), shows the host each answers on.',
  ],
  async run({ cwd }) {
    const { router, routes } = await loadAppRoutes(cwd)
    if (routes.length === 0) {
      console.log(`${ROUTES} registers no routes.`)
      return 0
    }
    const controllers = await controllerPaths(join(cwd, CONTROLLERS))
    const describe = (middleware: unknown) =>
      typeof middleware === 'string' ? middleware : (middleware as { name?: string }).name || 'Closure'
    const everywhere = router.getGlobalMiddleware().map(describe)
    const { PathScope } = await import('../routing/PathScope.js')
    const scoped = router.getPathMiddleware().map(({ path, middleware }) => ({ scope: new PathScope(path), name: describe(middleware) }))
    /** A route's middleware as a request to it meets them: the app's for every path, those of its path patterns, its own. */
    const middlewareOf = (route: (typeof routes)[number]) => [
      ...everywhere,
      ...scoped.flatMap(({ scope, name }) => {
        const coverage = scope.coverage(route.pattern)
        return coverage === 'none' ? [] : [coverage === 'all' ? name : `${name} (${scope.pattern})`]
      }),
      ...route.middlewareList.map(describe),
    ]
    // As Laravel's route:list, the domain has a column, here only in an application with domain routes.
    const domains = routes.some((route) => route.domain !== undefined)
    const rows = routes.map((route) => [
      route.methods.join('|'),
      ...(domains ? [route.domain ?? ''] : []),
      route.pattern,
      route.routeName ?? '',
      typeof route.handler === 'function' ? route.describeHandler() : `${controllers.get(route.handler[0]) ?? route.handler[0].name}@${route.handler[1]}`,
      middlewareOf(route).join(', '),
    ])
    console.log(table(['Method', ...(domains ? ['Domain'] : []), 'Path', 'Name', 'Handler', 'Middleware'], rows))
    return 0
  },
}

/** Each class exported under App/Controllers, by the path that tells two of one name apart: `Api/UserController`. */
async function controllerPaths(folder: string): Promise<Map<unknown, string>> {
  const paths = new Map<unknown, string>()
  if (!existsSync(folder)) return paths
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts'))
  for (const name of files) {
    const module = (await import(pathToFileURL(join(folder, name)).href)) as Record<string, unknown>
    const folderPath = relative(folder, join(folder, name)).replace(/\\/g, '/').replace(/[^/]+$/, '')
    for (const value of Object.values(module)) {
      if (typeof value === 'function' && !paths.has(value)) paths.set(value, `${folderPath}${value.name}`)
    }
  }
  return paths
}
