import type { EventEmitter } from 'node:events'
import { start } from 'node:repl'
import { PassThrough } from 'node:stream'
import { toJavaScript } from './toJavaScript.js'

/** Runs code as `fw tinker` reads it, one snippet at a time, outside a terminal. */
export interface Evaluator {
  /** The snippet's value (its last expression, a promise it ends with awaited); rejects with what it throws. */
  evaluate(code: string): Promise<unknown>
  close(): void
}

/**
 * The REPL's evaluation without its terminal: Node's own eval (top-level await, the last expression's value), on
 * TypeScript, with `context` in scope. What `fw tinker --execute` runs.
 *
 * @example
 * ```ts
 * const evaluator = evaluator({ User })
 * await evaluator.evaluate('const count: number = await User.count(); count') // 3
 * ```
 */
export function evaluator(context: Readonly<Record<string, unknown>>): Evaluator {
  const server = start({ input: new PassThrough(), output: new PassThrough(), terminal: false, useGlobal: true, prompt: '' })
  Object.assign(server.context, context)
  // The REPL reports what the code throws (or an awaited promise rejects with) to the domain its eval runs in, never
  // to the eval's callback; that domain is the one place to hear it.
  const domain = (server as unknown as { _domain: EventEmitter })._domain
  return {
    async evaluate(code) {
      const translation = await toJavaScript(code)
      if ('incomplete' in translation) throw new SyntaxError('the code stops short (an unclosed bracket, string or block?)')
      if ('error' in translation) throw translation.error
      const value = await new Promise<unknown>((resolve, reject) => {
        domain.once('error', reject)
        server.eval(translation.code, server.context, 'tinker', (error, result) => {
          domain.off('error', reject)
          if (error) reject(error)
          else resolve(result)
        })
      })
      return isThenable(value) ? await value : value
    },
    close: () => server.close(),
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}
