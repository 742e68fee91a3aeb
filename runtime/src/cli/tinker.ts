import { join } from 'node:path'
import { CommandError, type Command } from './Command.js'

/** Where `fw tinker` keeps the lines typed into it, from one session to the next. */
export const TINKER_HISTORY = 'storage/tinker_history'

/** `fw tinker` */
export const tinker: Command = {
  name: 'tinker',
  summary: 'Talk to the app in a REPL: models, db(), the container, TypeScript and top-level await',
  usage: 'tinker [--execute=<code>] [--force]',
  details: [
    'Boots the app as a queue worker does, then reads TypeScript: await User.create({ … }), db().selectFrom(…),',
    "container.make('mailer'), import { Post } from '#app/Models/Post.js'. Every class of App/Models is in scope by",
    `its name. History is kept in ${TINKER_HISTORY}. .exit or Ctrl-D leaves. Input may be piped: fw tinker < script.ts`,
    '-e, --execute=<code>  run the code, print its result (a promise is awaited) and exit; exit 1 when it throws',
    '--force               run in production too (NODE_ENV or APP_ENV = production), where it refuses by default',
  ],
  options: { execute: { type: 'string', short: 'e' }, force: { type: 'boolean' } },
  async run({ values, cwd, verbose }) {
    const [{ loadEnv }, { isProduction }] = await Promise.all([import('../config/loadEnv.js'), import('../config/environment.js')])
    loadEnv(join(cwd, '.env'))
    if (isProduction() && values.force !== true) {
      throw new CommandError('fw tinker refuses to run in production (NODE_ENV or APP_ENV = production): what it runs changes real data. Add --force if you mean it.')
    }
    const [{ withApp }, { appModels }, { db }] = await Promise.all([import('./withApp.js'), import('./tinker/appModels.js'), import('../database/db.js')])
    // import() typed into the REPL resolves from the working folder: the app's, so that `#app/…` finds its package.json.
    process.chdir(cwd)
    return withApp(cwd, async ({ container, built }) => {
      const context = { container, db, ...(await appModels(cwd, built)) }
      if (typeof values.execute === 'string') return execute(values.execute, context, verbose === true)
      const { tinkerRepl } = await import('./tinker/tinkerRepl.js')
      if (process.stdin.isTTY) {
        const models = Object.keys(context).filter((name) => name !== 'container' && name !== 'db')
        console.log(`Fw tinker: container, db()${models.length ? `, ${models.join(', ')}` : ''} in scope; TypeScript and await welcome; .exit to leave`)
      }
      await tinkerRepl({ context, historyFile: join(cwd, TINKER_HISTORY) })
      return 0
    })
  },
}

/**
 * `fw tinker --execute`: runs the code as the REPL would (TypeScript, top-level await, the same scope), awaits a
 * promise it ends with, and prints the result as `node -p` does (nothing for undefined). Resolves to the exit code.
 */
async function execute(code: string, context: Record<string, unknown>, verbose: boolean): Promise<number> {
  const running = (await import('./tinker/evaluator.js')).evaluator(context)
  try {
    const result = await running.evaluate(code)
    if (result !== undefined) console.log(result)
    return 0
  } catch (error) {
    const shown = error instanceof Error ? (verbose ? error.stack : `${error.name}: ${error.message.split('\n')[0]}`) : String(error)
    console.error(`fw tinker --execute failed: ${shown}${verbose ? '' : ' (run with --verbose for the stack)'}`)
    return 1
  } finally {
    running.close()
  }
}
