// Dispatches the queue suite's jobs through Fw (`Noop.dispatch`), as an app's route does: `--jobs N` as fast as one
// process can, or `--rate R` per second. DATABASE_URL and QUEUE_DRIVER=database come from the environment.
// Prints `{ count, ms }`.
import { parseArgs } from 'node:util'
import { Container } from '../../runtime/dist/index.js'
import { Job, queue } from '../../runtime/dist/queue.js'
import { pace } from './pace.mjs'

class Noop extends Job {}

const { values } = parseArgs({ options: { jobs: { type: 'string' }, rate: { type: 'string' } } })
const started = performance.now()
const count = await pace(Number(values.jobs), values.rate && Number(values.rate), (paced) => Noop.dispatch({ sentAt: Date.now(), paced }))
const ms = performance.now() - started
await queue.stored().close?.()
await Container.getInstance().make('db').destroy()
console.log(JSON.stringify({ count, ms }))
