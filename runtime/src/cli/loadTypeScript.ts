import { register } from 'node:module'

/**
 * A resolve hook that adds the `development` condition, as `node --conditions=development` would: the
 * application's `#app/*` imports (package.json `imports`) then name its TypeScript sources, not dist/.
 * A `data:` URL, because a hook must be a module of its own and this file is bundled into the fw command.
 */
const DEVELOPMENT_CONDITION = `data:text/javascript,${encodeURIComponent(`
export function resolve(specifier, context, next) {
  const conditions = context.conditions.includes('development') ? context.conditions : [...context.conditions, 'development']
  return next(specifier, { ...context, conditions })
}`)}`

let loading: Promise<void> | undefined

/**
 * Lets `import()` load the application's TypeScript (migrations, seeders, routes), resolving its `#app/*`
 * imports to the sources. Only the commands that import application code call it: tsx takes a tenth of a
 * second to start. Calling it again does nothing more (`fw` finds the app's commands, then runs one).
 */
export function loadTypeScript(): Promise<void> {
  return (loading ??= (async () => {
    const { register: registerTsx } = await import('tsx/esm/api')
    registerTsx()
    register(DEVELOPMENT_CONDITION)
  })())
}
