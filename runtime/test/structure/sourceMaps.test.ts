import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { SourceMap, type SourceMapPayload } from 'node:module'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, expect, it } from 'vitest'

const runtime = fileURLToPath(new URL('../../', import.meta.url))

/** The files `npm publish` would put in fw-runtime's package, as `npm pack --dry-run` lists them. */
let packed: Set<string>
let maps: string[]
beforeAll(async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: runtime })
  const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[]
  packed = new Set(pack!.files.map((file) => file.path))
  maps = [...packed].filter((path) => path.startsWith('dist/') && path.endsWith('.js.map'))
}, 60_000)

const readMap = (path: string) => JSON.parse(readFileSync(`${runtime}${path}`, 'utf8')) as SourceMapPayload & { sourcesContent?: (string | null)[] }

/** Line and column (0-based) of the first occurrence of `text` in a built file. */
function positionOf(file: string, text: string): { line: number; column: number } {
  const code = readFileSync(`${runtime}${file}`, 'utf8')
  const at = code.indexOf(text)
  if (at < 0) throw new Error(`${text} is not in ${file}`)
  const before = code.slice(0, at).split('\n')
  return { line: before.length - 1, column: before.at(-1)!.length }
}

// A stack trace under fw serve (source maps on) names the files a map's `sources` point at: each must be a file
// of the installed package, never node_modules/fw-runtime/../../node_modules/kysely or ../generators.
it('names, in every source map of dist/, only files the published package holds', () => {
  expect(maps.length).toBeGreaterThan(10)
  const missing: string[] = []
  for (const map of maps) {
    const { sources, sourceRoot = '', sourcesContent } = readMap(map)
    expect(sourcesContent?.length ?? sources.length, map).toBe(sources.length)
    for (const source of sources) {
      const file = posix.normalize(posix.join(posix.dirname(map), sourceRoot, source))
      if (!packed.has(file)) missing.push(`${map}: ${source}`)
    }
  }
  expect(missing).toEqual([])
})

it('maps fw-runtime\'s own code to its TypeScript sources, shipped in src/', () => {
  const chunk = maps.map((map) => map.slice(0, -'.map'.length)).find((file) => readFileSync(`${runtime}${file}`, 'utf8').includes('var Router = class'))!
  const { line, column } = positionOf(chunk, 'var Router = class')
  const entry = new SourceMap(readMap(`${chunk}.map`)).findEntry(line, column)
  expect('originalSource' in entry && posix.normalize(posix.join(posix.dirname(chunk), entry.originalSource))).toBe('src/routing/Router.ts')
  expect(packed.has('src/routing/Router.ts')).toBe(true)
})

it('maps the bundled kysely and awilix, and the generators, to copies of their code in dist/, line for line', () => {
  for (const [text, copy] of [
    ['var SelectQueryBuilderImpl = class', /^dist\/bundled\/kysely\/dist\/query-builder\/select-query-builder\.js$/],
    ['var AwilixError = class', /^dist\/bundled\/awilix\/lib\/awilix\.module\.mjs$/],
    ['var makeModel = {', /^dist\/generators\/make-model\/index\.ts$/],
  ] as const) {
    const chunk = maps.map((map) => map.slice(0, -'.map'.length)).find((file) => readFileSync(`${runtime}${file}`, 'utf8').includes(text))
    expect(chunk, text).toBeDefined()
    const { line, column } = positionOf(chunk!, text)
    const entry = new SourceMap(readMap(`${chunk}.map`)).findEntry(line, column + 4) as { originalSource?: string; originalLine?: number }
    const source = posix.normalize(posix.join(posix.dirname(chunk!), entry.originalSource ?? ''))
    expect(source, text).toMatch(copy)
    expect(packed.has(source), source).toBe(true)
    const name = text.split(' ')[1]!
    expect(readFileSync(`${runtime}${source}`, 'utf8').split('\n')[entry.originalLine!], source).toContain(name.replace(/Impl$/, ''))
  }
})

it('leaves esbuild\'s virtual modules unmapped, so that their frames name the dist file itself', () => {
  const sources = maps.flatMap((map) => readMap(map).sources)
  expect(sources.filter((source) => source.includes(':'))).toEqual([])
})
