import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Command } from './Command.js'
import { loadAppRoutes, ROUTES } from './loadAppRoutes.js'
import { table } from './table.js'

const CONTROLLERS = 'App/Controllers'

export const routeList: Command = {
  name: 'route:list',
  summary: 'List the routes: method, path, name, handler and middleware',
  usage: 'route:list',
  details: [
    `Loads ${ROUTES} (and the files it imports) into a fresh router; middleware added with router.use in bootstrap/app.ts (for every path, or for a path pattern such as /api/*) is not shown.`,
    `A controller in a folder of ${CONTROLLERS} is shown with it: Api/UserController@store.`,
  ],
  async run({ cwd }) {
    const routes = await loadAppRoutes(cwd)
    if (routes.length === 0) {
      console.log(`${ROUTES} registers no routes.`)
      return 0
    }
    const controllers = await controllerPaths(join(cwd, CONTROLLERS))
    const describe = (middleware: unknown) =>
      typeof middleware === 'string' ? middleware : (middleware as { name?: string }).name || 'Closure'
    const rows = routes.map((route) => [
      route.methods.join('|'),
      route.pattern,
      route.routeName ?? '',
      typeof route.handler === 'function' ? route.describeHandler() : `${controllers.get(route.handler[0]) ?? route.handler[0].name}@${route.handler[1]}`,
      route.middlewareList.map(describe).join(', '),
    ])
    console.log(table(['Method', 'Path', 'Name', 'Handler', 'Middleware'], rows))
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
