import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import { Recoverable, start, type REPLEval, type REPLServer } from 'node:repl'
import { PassThrough } from 'node:stream'
import { toJavaScript } from './toJavaScript.js'

/** How many lines the history file keeps, as Node's own REPL does. */
const HISTORY_SIZE = 1000

export interface TinkerReplOptions {
  /** What is in scope besides the globals: the container, `db`, the models. */
  readonly context: Readonly<Record<string, unknown>>
  /** Where the lines typed are kept between sessions (newest first, as Node's REPL writes its history). */
  readonly historyFile: string
  readonly input?: NodeJS.ReadableStream & { isTTY?: boolean }
  readonly output?: NodeJS.WritableStream
}

/**
 * A `node:repl` that reads TypeScript (see `toJavaScript`), with top-level await, `context` in scope and its
 * history in `historyFile`. Resolves when it is left (`.exit`, Ctrl-D, or the end of piped input).
 *
 * From a terminal it is Node's REPL as it is (completion, history with the arrow keys). Piped (`fw tinker <
 * script.ts`), each line waits for the one before to finish, awaits included, as if typed: Node's REPL alone would
 * read the next line while an `await` is still running, and stop at the end of the input before it is done.
 *
 * @example
 * ```ts
 * await tinkerRepl({ context: { db, User }, historyFile: 'storage/tinker_history' })
 * ```
 */
export function tinkerRepl({ context, historyFile, input = process.stdin, output = process.stdout }: TinkerReplOptions): Promise<void> {
  const interactive = input.isTTY === true
  const fed = interactive ? undefined : new PassThrough()
  const server = start({
    prompt: interactive ? '> ' : '',
    input: fed ?? input,
    output,
    terminal: interactive,
    useGlobal: true,
    ignoreUndefined: true,
  })
  Object.assign(server.context, context)
  // Node's own eval is not exported; the server's, replaced here, is (typed read-only, a plain property underneath).
  ;(server as { eval: REPLEval }).eval = typeScriptEval(server.eval)
  mkdirSync(dirname(historyFile), { recursive: true })
  const closed = new Promise<void>((resolve) => server.once('exit', resolve))
  if (interactive) {
    server.setupHistory(historyFile, (error) => {
      if (error) output.write(`(no history: ${error.message})\n`)
    })
    return closed
  }
  return feedLines(server, fed!, input, historyFile).then(() => closed)
}

/** The REPL's own eval (top-level await, completion values) given the JavaScript of what was typed. */
function typeScriptEval(evaluate: REPLEval): REPLEval {
  return function (this: REPLServer, code, context, file, callback) {
    toJavaScript(code).then(
      (translation) => {
        if ('incomplete' in translation) callback(new Recoverable(new SyntaxError('Unexpected end of input')), undefined)
        else if ('error' in translation) callback(translation.error, undefined)
        else evaluate.call(this, translation.code, context, file, callback)
      },
      (error: Error) => callback(error, undefined),
    )
  }
}

/**
 * Gives the REPL the lines of `input` one at a time, the next one when the REPL shows its prompt again (the line
 * before has finished), then closes it; the lines join the history file.
 */
async function feedLines(server: REPLServer, fed: PassThrough, input: NodeJS.ReadableStream, historyFile: string): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]()
  const typed: string[] = []
  const showPrompt = server.displayPrompt.bind(server)
  let ready: (() => void) | undefined
  server.displayPrompt = (preserveCursor?: boolean) => {
    showPrompt(preserveCursor)
    ready?.()
  }
  const prompted = () => new Promise<void>((resolve) => (ready = resolve))
  let closed = false
  server.once('exit', () => {
    closed = true
    ready?.()
  })
  for (;;) {
    const next = await lines.next()
    if (next.done || closed) break
    typed.push(next.value)
    const shown = prompted()
    fed.write(`${next.value}\n`)
    await shown
    if (closed) break
  }
  keepHistory(historyFile, typed)
  if (!closed) server.close()
}

/** Adds lines to the history file, newest first, as Node's REPL keeps it, up to its size. */
function keepHistory(file: string, lines: readonly string[]): void {
  let kept: string[] = []
  try {
    kept = readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean)
  } catch {
    // No history yet.
  }
  const added = lines.filter((line) => line.trim() !== '').reverse()
  writeFileSync(file, [...added, ...kept].slice(0, HISTORY_SIZE).join('\n') + '\n')
}
