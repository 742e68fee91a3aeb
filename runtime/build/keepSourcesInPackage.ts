import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec'

interface SourceMap {
  version: number
  sources: string[]
  sourcesContent?: (string | null)[]
  sourceRoot?: string
  mappings: string
}

/**
 * Rewrites the source maps of a package's build so that a stack trace names only files that an installed copy of
 * the package holds. Node prints a frame at the source a map gives, whether or not that file exists, and esbuild's
 * maps name each input where it was in this workspace: in an application, fw-runtime's frames named
 * `node_modules/fw-runtime/src/…` (shipped since, see package.json `files`), the bundled kysely and awilix
 * `node_modules/node_modules/kysely/…`, and the generators `node_modules/generators/…`.
 *
 * A source outside the package's published files is written into `dist/` from the map's own copy of it: the bundled
 * packages' files to `dist/bundled/<package>/…` (`dist/bundled/kysely/dist/esm/…`), the workspace's other files to
 * `dist/<path>` (`dist/generators/make-auth/index.ts`, beside its stubs), and the map points there. So a frame in
 * kysely names the kysely file and line that ran, a file that is there whatever the application installed: its own
 * `node_modules/kysely` may be another version, elsewhere (pnpm) or absent, and the dist chunk itself, the other file
 * always there, is one 16,000-line bundle. Profiles still tell kysely's time from Fw's by the path (bench:profile).
 * A source with no copy in the map (esbuild's virtual modules) is left out, and its segments keep their generated
 * column only: Node then prints the dist file's own position, never the mapped segment before it. The maps' own
 * copies (`sourcesContent`) go: every source they name is a file of the package, so it ships once, not twice.
 *
 * @example
 * ```ts
 * keepSourcesInPackage('dist') // in tsup's onSuccess, from the package's folder
 * ```
 */
export function keepSourcesInPackage(dist: string, packageDir = '.'): void {
  const root = resolve(packageDir)
  const workspace = dirname(root)
  const { files = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files?: string[] }
  const published = (path: string) => {
    const inside = relative(root, path).split(sep).join('/')
    const listed = !inside.startsWith('../') && !inside.includes('node_modules/') && files.some((entry) => inside === entry || inside.startsWith(`${entry}/`))
    return listed && existsSync(path)
  }
  /** Where a copy of a source outside the package goes, or undefined for one that is no file of the workspace. */
  const copyOf = (path: string): string | undefined => {
    const inWorkspace = relative(workspace, path).split(sep).join('/')
    if (inWorkspace.startsWith('../') || inWorkspace.includes(':')) return undefined
    const at = inWorkspace.lastIndexOf('node_modules/')
    return at >= 0 ? join(root, dist, 'bundled', inWorkspace.slice(at + 'node_modules/'.length)) : join(root, dist, inWorkspace)
  }

  for (const name of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.map'))) {
    const file = join(dist, name)
    const map = JSON.parse(readFileSync(file, 'utf8')) as SourceMap
    const folder = resolve(dirname(file), map.sourceRoot ?? '')
    const sources = map.sources.map((source, i): string | undefined => {
      const path = resolve(folder, source)
      if (published(path)) return source
      const content = map.sourcesContent?.[i]
      const copy = copyOf(path)
      if (typeof content !== 'string' || copy === undefined) return undefined
      mkdirSync(dirname(copy), { recursive: true })
      writeFileSync(copy, content)
      return relative(folder, copy).split(sep).join('/')
    })

    // The sources kept, renumbered; the segments of a source left out keep their generated column only.
    const index: number[] = []
    let next = 0
    for (const [i, source] of sources.entries()) index[i] = source === undefined ? -1 : next++
    const mappings = decode(map.mappings).map((line) =>
      line.map((segment): SourceMapSegment => {
        if (segment.length === 1) return segment
        const source = index[segment[1]]!
        if (source < 0) return [segment[0]]
        return segment.length === 5 ? [segment[0], source, segment[2], segment[3], segment[4]] : [segment[0], source, segment[2], segment[3]]
      }),
    )
    map.sources = sources.filter((source) => source !== undefined)
    // Every source is a file of the package now: one copy of it is enough.
    delete map.sourcesContent
    map.mappings = encode(mappings)
    writeFileSync(file, JSON.stringify(map))
  }
}
