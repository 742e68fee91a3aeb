import type { AnyModel } from '../database/modelTypes.js'

/**
 * Which actions of a resource to register (`{ only: ['index', 'show'] }` or `{ except: ['destroy'] }`), the
 * constraints of its parameter, as `where` on each route that has it (`{ where: { photo: /\d+/ } }`), and the model
 * its parameter is bound to (`{ bind: Photo }`: show, edit, update and destroy get the row, see `RouteDefinition.bind`).
 */
export interface ResourceOptions {
  only?: readonly string[]
  except?: readonly string[]
  where?: Readonly<Record<string, RegExp | string>>
  bind?: AnyModel
}

/** One route of a resource. */
export interface ResourceAction {
  readonly methods: readonly string[]
  readonly path: string
  readonly action: string
  readonly routeName: string
  /** The item's parameter (`photo`) on the routes of one item (show, edit, update, destroy). */
  readonly parameter?: string
}

/** `photos` → `photo`, `categories` → `category`: the parameter name of one item. */
function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (/(s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

/**
 * The routes of `Route.resource(name, …)` as Laravel names them: index, create, store, show, edit,
 * update and destroy (`apiResource` leaves out the forms, create and edit).
 */
export function resourceActions(name: string, options: ResourceOptions, api: boolean): ResourceAction[] {
  const base = `/${name.replace(/^\/+|\/+$/g, '')}`
  const last = base.split('/').pop()!
  const parameter = singular(last).replace(/[^A-Za-z0-9_]/g, '_')
  const item = `${base}/{${parameter}}`
  for (const constrained of Object.keys(options.where ?? {})) {
    if (constrained !== parameter) throw new Error(`Resource "${name}" has no parameter {${constrained}} to constrain: its parameter is {${parameter}}`)
  }
  const prefix = base.slice(1).replaceAll('/', '.')
  const all: [string[], string, string][] = [
    [['GET'], base, 'index'],
    [['GET'], `${base}/create`, 'create'],
    [['POST'], base, 'store'],
    [['GET'], item, 'show'],
    [['GET'], `${item}/edit`, 'edit'],
    [['PUT', 'PATCH'], item, 'update'],
    [['DELETE'], item, 'destroy'],
  ]
  return all
    .filter(([, , action]) => !(api && (action === 'create' || action === 'edit')))
    .filter(([, , action]) => (options.only ? options.only.includes(action) : true) && !options.except?.includes(action))
    .map(([methods, path, action]) => ({ methods, path, action, routeName: `${prefix}.${action}`, ...(path.startsWith(item) ? { parameter } : {}) }))
}
