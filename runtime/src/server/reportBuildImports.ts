import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * Warns on stderr when the application's TypeScript entry runs without the `development` condition while
 * its package.json `imports` have one (the starters' `#app/*`): those imports then load the build in
 * dist/, perhaps an old one, instead of the sources beside the entry. `fw serve` sets the condition; by
 * hand it is `node --conditions=development --import tsx public/index.ts`. Never stops the start.
 *
 * @example
 * ```ts
 * reportBuildImports(appRoot())
 * ```
 */
export function reportBuildImports(root: string, entry = process.argv[1] ?? '', flags = nodeFlags()): boolean {
  if (!entry.endsWith('.ts') || developmentCondition(flags) || !importsHaveDevelopment(root)) return false
  const file = relative(root, entry)
  console.warn(
    `[fw] warning: ${file} runs without --conditions=development, so its #app/* imports load the build in dist/, ` +
      `not the TypeScript sources: use fw serve, or node --conditions=development --import tsx ${file}`,
  )
  return true
}

/** Node's own flags for this process: its command line's and NODE_OPTIONS'. */
function nodeFlags(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
}

/** `--conditions=development`, `--conditions development`, `-C development` or `-C=development` among the flags. */
function developmentCondition(flags: readonly string[]): boolean {
  return flags.some((flag, i) => /^(--conditions|-C)=development$/.test(flag) || (/^(--conditions|-C)$/.test(flag) && flags[i + 1] === 'development'))
}

function importsHaveDevelopment(root: string): boolean {
  try {
    const { imports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports?: Record<string, unknown> }
    return Object.values(imports ?? {}).some((target) => typeof target === 'object' && target !== null && 'development' in target)
  } catch {
    return false
  }
}
