import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { extname, isAbsolute, join } from 'node:path'
import { CommandError, type Command } from './Command.js'

/** The largest page `--render` stores: it is read by every process from the database. */
const PAGE_LIMIT = 256 * 1024

/** A whole number of seconds from 1, or the default when the option is not given. */
function seconds(name: string, value: string | boolean | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback
  if (typeof value === 'string' && /^[1-9]\d{0,6}$/.test(value)) return Number(value)
  throw new CommandError(`fw down: invalid --${name} "${String(value)}": use a whole number of seconds from 1`)
}

function secretOf(values: Record<string, string | boolean | undefined>): string | undefined {
  if (values['with-secret'] === true) {
    if (values.secret !== undefined) throw new CommandError('fw down: give --secret=… or --with-secret, not both')
    return randomBytes(24).toString('base64url')
  }
  const secret = values.secret
  if (secret === undefined) return undefined
  if (typeof secret !== 'string' || !/^[\w-]{8,128}$/.test(secret)) {
    throw new CommandError('fw down: invalid --secret: use 8 to 128 letters, digits, - and _ (it becomes the path /<secret>), or --with-secret for a random one')
  }
  return secret
}

/** The page of `--render=<file>`: an HTML file of the app (`.html` may be left out), read now and stored whole. */
function pageOf(cwd: string, value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '') throw new CommandError('fw down: --render takes an HTML file: --render=resources/maintenance.html')
  const given = isAbsolute(value) ? value : join(cwd, value)
  const file = [given, extname(given) === '' ? `${given}.html` : undefined].find((path) => path !== undefined && existsSync(path) && statSync(path).isFile())
  if (file === undefined) throw new CommandError(`fw down: --render names no file: ${value} (an HTML file, relative to the app's folder)`)
  const page = readFileSync(file, 'utf8')
  if (Buffer.byteLength(page) > PAGE_LIMIT) throw new CommandError(`fw down: --render ${value} is over ${PAGE_LIMIT / 1024} KiB; keep the maintenance page small (link its images)`)
  return page
}

/** Whether bootstrap/app sets up `maintenanceMode()`: without it, `fw down` changes nothing a client sees. */
function usesMaintenanceMode(cwd: string): boolean {
  const file = ['bootstrap/app.ts', 'bootstrap/app.js'].map((path) => join(cwd, path)).find((path) => existsSync(path))
  return file !== undefined && readFileSync(file, 'utf8').includes('maintenanceMode(')
}

/** `fw down [--secret=…|--with-secret] [--retry=60] [--refresh=N] [--render=<file>]` */
export const down: Command = {
  name: 'down',
  summary: 'Put the application into maintenance mode: every process answers 503 until fw up',
  usage: 'down [--secret=<secret>|--with-secret] [--retry=60] [--refresh=<seconds>] [--render=<file.html>]',
  details: [
    '--secret       a browser that opens /<secret> gets a cookie that lets it through for 12 hours (--with-secret: a random one)',
    '--retry        seconds for the Retry-After header of the 503 (default 60)',
    '--refresh      seconds after which browsers reload the page (a Refresh header)',
    '--render       an HTML file browsers get instead of Fw\'s 503 page (stored now: every machine serves it)',
    'The state is in the app\'s database: every process of every machine answers 503 within about a second, except',
    'the paths maintenanceMode() exempts (/health). Queue workers pause until fw up, unless started with --force.',
  ],
  options: {
    secret: { type: 'string' },
    'with-secret': { type: 'boolean' },
    retry: { type: 'string' },
    refresh: { type: 'string' },
    render: { type: 'string' },
  },
  async run({ values, cwd }) {
    // Every option is checked before the database is touched: a mistake changes nothing.
    const secret = secretOf(values)
    const retry = seconds('retry', values.retry, 60)!
    const refresh = seconds('refresh', values.refresh)
    const page = pageOf(cwd, values.render)
    const [{ withDatabase }, { putDown, readMaintenance }] = await Promise.all([import('./withDatabase.js'), import('../maintenance/maintenanceTable.js')])
    const state = {
      since: Date.now(),
      retry,
      ...(refresh === undefined ? {} : { refresh }),
      ...(secret === undefined ? {} : { secretHash: createHash('sha256').update(secret).digest('hex') }),
      ...(page === undefined ? {} : { page }),
    }
    const done = await withDatabase('down', cwd, async (database) => {
      if (await putDown(database, state)) return true
      const since = (await readMaintenance(database))?.since
      console.log(`The application is already down${since ? ` (since ${new Date(since).toISOString().slice(0, 19).replace('T', ' ')} UTC)` : ''}: nothing changed. fw up brings it back.`)
      return false
    })
    if (!done) return 0
    console.log('The application is now in maintenance mode: every process answers 503 within a second.')
    if (secret !== undefined) console.log(`Bypass: open ${(process.env.APP_URL ?? '').replace(/\/+$/, '')}/${secret} to get through for 12 hours.`)
    if (!usesMaintenanceMode(cwd)) {
      console.error("Warning: bootstrap/app.ts does not run maintenanceMode(): add router.use(maintenanceMode()) there, or the app keeps answering.")
    }
    return 0
  },
}

/** `fw up` */
export const up: Command = {
  name: 'up',
  summary: 'Bring the application out of maintenance mode',
  usage: 'up',
  details: ['Every process answers again within about a second; paused queue workers take jobs again.'],
  async run({ cwd }) {
    const [{ withDatabase }, { bringUp }] = await Promise.all([import('./withDatabase.js'), import('../maintenance/maintenanceTable.js')])
    const wasDown = await withDatabase('up', cwd, (database) => bringUp(database))
    console.log(wasDown ? 'The application is up.' : 'The application is not down: nothing to do.')
    return 0
  },
}
