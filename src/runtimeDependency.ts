import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { CliError } from './CliError.js'

/** Where the new application's `fw-runtime` comes from. */
export type RuntimeDependency =
  /** A version range or any npm spec, written as it is. */
  | { kind: 'spec'; spec: string }
  /** The runtime of a source checkout, packed into the application (see `packRuntime`). */
  | { kind: 'checkout'; runtimeDir: string }

/**
 * A published create-fw-app has `dist/` and `template/` only; a source checkout also has the runtime
 * package in `runtime/`. From a checkout the runtime may not be on any registry (or not at this
 * version), so it is packed into the application instead.
 */
export function chooseRuntimeDependency(packageRoot: string, version: string, override?: string): RuntimeDependency {
  if (override !== undefined) return { kind: 'spec', spec: override }
  const runtimeDir = join(packageRoot, 'runtime')
  if (existsSync(join(runtimeDir, 'package.json'))) return { kind: 'checkout', runtimeDir }
  return { kind: 'spec', spec: `^${version}` }
}

/**
 * Packs the checkout's runtime into `<appDir>/vendor/` and returns the dependency spec
 * (`file:vendor/fw-runtime-0.1.0.tgz`): relative to the application, so it keeps working
 * wherever the application or the checkout moves.
 */
export async function packRuntime(runtimeDir: string, appDir: string): Promise<string> {
  if (!existsSync(join(runtimeDir, 'dist', 'index.js')) || !existsSync(join(runtimeDir, 'dist', 'index.d.ts'))) {
    throw new CliError(`fw-runtime in ${runtimeDir} is not built: run "npm install" (or "npm run build") in the checkout first`)
  }
  const vendor = join(appDir, 'vendor')
  mkdirSync(vendor, { recursive: true })
  let output: string
  try {
    const result = await promisify(execFile)(
      'npm',
      ['pack', runtimeDir, '--pack-destination', vendor, '--json', '--ignore-scripts'],
      { cwd: vendor, encoding: 'utf8', shell: process.platform === 'win32' },
    )
    output = result.stdout
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) ?? String(error)
    throw new CliError(`Could not pack fw-runtime from ${runtimeDir}: ${stderr}`)
  }
  const [packed] = JSON.parse(output) as { filename: string }[]
  if (!packed || !existsSync(join(vendor, packed.filename))) {
    throw new CliError(`Could not pack fw-runtime from ${runtimeDir}: npm pack wrote no file`)
  }
  return `file:vendor/${packed.filename}`
}

/** The `version` field of a package.json. */
export function readVersion(packageJson: string): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
}
