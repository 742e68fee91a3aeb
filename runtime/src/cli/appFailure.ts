import { isAbsolute, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Why the app under `fw serve` stopped, as read from what it wrote to stderr (see `readAppFailure`). */
export interface AppFailure {
  /** `SyntaxError: Unexpected token ','`, or `The app exited with code 1` when its output names no error. */
  readonly message: string
  /** The file the error points at, relative to the app's root when it is inside it. */
  readonly file?: string
  readonly line?: number
  readonly column?: number
  /** The end of the app's stderr, the last lines before it stopped. */
  readonly output: string
}

/** What esbuild (through tsx) says about a TypeScript file it cannot parse: `/app/routes/web.ts:3:10: ERROR: …`. */
const TRANSFORM_ERROR = /^(.+?):(\d+):(\d+): ERROR: (.+)$/m
/** What Node prints for a JavaScript file it cannot parse: the file and line, the source line, a caret under the column. */
const PARSE_ERROR = /^((?:file:\/\/|\/).+?):(\d+)\n.*\n([ \t]*)\^+[ \t]*\n\s*^(SyntaxError: .+)$/m
/** The first line of a printed error: `Error: …`, `TypeError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`. */
const ERROR_LINE = /^(?:\[fw\][^\n]*?: )?((?:[A-Z]\w*)?(?:Error|Exception)(?: \[\w+\])?: .+)$/gm
/** A stack frame's place: `at fn (file:///app/routes/web.ts:3:7)` or `at file:///app/routes/web.ts:3:7`. */
const FRAME = /^\s+at (?:.*\()?((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)\)?$/gm
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g

/** The most output a failure keeps: the error is at its end. */
export const FAILURE_OUTPUT_LIMIT = 64 * 1024

/**
 * Reads why the app stopped from the end of its stderr: a TypeScript syntax error as esbuild reports it, a JavaScript
 * one as Node prints it (file, line and the column of its caret), or else the last error printed and the first frame
 * of its stack in the app's own code (not in node_modules). `root` is the app's folder; `code` its exit code.
 *
 * @example
 * ```ts
 * readAppFailure('/app/routes/web.ts:3:10: ERROR: Expected ";" but found "x"\n', '/app', 1)
 * // { message: 'SyntaxError: Expected ";" but found "x"', file: 'routes/web.ts', line: 3, column: 10, output: … }
 * ```
 */
export function readAppFailure(stderr: string, root: string, code: number | null): AppFailure {
  const output = stderr.replace(ANSI, '').slice(-FAILURE_OUTPUT_LIMIT)
  const transform = TRANSFORM_ERROR.exec(output)
  if (transform) {
    return { message: `SyntaxError: ${transform[4]}`, ...place(transform[1]!, transform[2]!, Number(transform[3]) + 1, root), output }
  }
  const parse = PARSE_ERROR.exec(output)
  if (parse) return { message: parse[4]!, ...place(parse[1]!, parse[2]!, parse[3]!.length + 1, root), output }
  const errors = [...output.matchAll(ERROR_LINE)]
  const last = errors.at(-1)
  if (!last) return { message: `The app exited with code ${code ?? 'none'}`, output }
  for (const frame of output.slice(last.index).matchAll(FRAME)) {
    const found = place(frame[1]!, frame[2]!, Number(frame[3]), root)
    if (!found.file.startsWith('..') && !isAbsolute(found.file) && !found.file.split(/[\\/]/).includes('node_modules')) {
      return { message: last[1]!, ...found, output }
    }
  }
  return { message: last[1]!, output }
}

function place(file: string, line: string, column: number, root: string): { file: string; line: number; column: number } {
  const path = file.startsWith('file://') ? fileURLToPath(file) : file
  const inside = relative(root, path)
  return { file: inside.startsWith('..') || isAbsolute(inside) ? path : inside, line: Number(line), column }
}
