import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type Command } from './Command.js'
import { loadTypeScript } from './loadTypeScript.js'
import { table } from './table.js'

const ROUTES = 'routes/web.ts'

export const routeList: Command = {
  name: 'route:list',
  summary: 'List the routes: method, path, name, handler and middleware',
  usage: 'route:list',
  details: [`Loads ${ROUTES} into a fresh router; middleware added in public/index.ts with router.use is not shown.`],
  async run({ cwd }) {
    const file = join(cwd, ROUTES)
    if (!existsSync(file)) throw new CommandError(`No ${ROUTES} in ${cwd}: run fw from your application's folder`)
    await loadTypeScript()
    const { Container, Router, loadEnv } = await import('../index.js')
    loadEnv(join(cwd, '.env'))
    const router = new Router(Container.getInstance())
    await router.loadRoutesFromFile(file)
    const routes = router.getRoutes()
    if (routes.length === 0) {
      console.log(`${ROUTES} registers no routes.`)
      return 0
    }
    const describe = (middleware: unknown) =>
      typeof middleware === 'string' ? middleware : (middleware as { name?: string }).name || 'Closure'
    const rows = routes.map((route) => [
      route.methods.join('|'),
      route.pattern,
      route.routeName ?? '',
      route.describeHandler(),
      route.middlewareList.map(describe).join(', '),
    ])
    console.log(table(['Method', 'Path', 'Name', 'Handler', 'Middleware'], rows))
    return 0
  },
}
