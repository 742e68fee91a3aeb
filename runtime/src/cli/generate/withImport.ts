/**
 * A source file with one more import line after its last import (or at the top), unless it has
 * that line already: how a generator hooks its own routes file into routes/web.ts.
 *
 * @example
 * ```ts
 * withImport("import { Route } from 'fw-runtime'\n\nRoute.get('/', home)\n", "import './auth.js'")
 * // "import { Route } from 'fw-runtime'\nimport './auth.js'\n\nRoute.get('/', home)\n"
 * ```
 */
export function withImport(source: string, line: string): string {
  if (source.split('\n').some((existing) => existing.trim() === line)) return source
  const imports = [...source.matchAll(/^import\b[^;]*?['"][^'"\n]+['"];?[ \t]*$/gm)]
  const last = imports.at(-1)
  if (!last) return `${line}\n\n${source}`
  const at = last.index + last[0].length
  return `${source.slice(0, at)}\n${line}${source.slice(at)}`
}
