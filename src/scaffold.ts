import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
// The key's one definition, fw-runtime's, so that fw key:generate and a new application write the same kind of key;
// bundled into create-fw-app's single file by its build.
import { generateAppKey } from '../runtime/src/session/generateAppKey.js'
import { CliError } from './CliError.js'
import { packRuntime, type RuntimeDependency } from './runtimeDependency.js'

export interface ScaffoldOptions {
  templateDir: string
  /** Absolute path of the application folder. */
  targetDir: string
  packageName: string
  runtime: RuntimeDependency
  /** Empty a non-empty target first, keeping `.git`. */
  overwrite: boolean
}

/** Files in which `__PROJECT_NAME__` becomes the package name; every other file is copied byte for byte. */
const NAMED_FILES = ['README.md', '.env.example']

/** Whether a folder is missing, empty, or holds nothing but `.git`. */
export function isEmptyDir(dir: string): boolean {
  if (!existsSync(dir)) return true
  const entries = readdirSync(dir)
  return entries.length === 0 || (entries.length === 1 && entries[0] === '.git')
}

/**
 * Writes the application into a temporary folder beside the target, then moves it into place,
 * so that a failure (or Ctrl-C) part-way leaves no half-written application behind.
 */
export async function scaffold(options: ScaffoldOptions): Promise<void> {
  const { targetDir } = options
  if (existsSync(targetDir) && !statSync(targetDir).isDirectory()) {
    throw new CliError(`${targetDir} exists and is not a directory`)
  }
  if (!options.overwrite && !isEmptyDir(targetDir)) {
    throw new CliError(`${targetDir} is not empty: choose another directory, or pass --overwrite to replace its files (.git is kept)`)
  }

  const parent = dirname(targetDir)
  const createdParent = mkdirSync(parent, { recursive: true })
  const staging = mkdtempSync(join(parent, `.${basename(targetDir)}-fw-`))
  const cleanUp = () => {
    rmSync(staging, { recursive: true, force: true })
    if (createdParent) rmSync(createdParent, { recursive: true, force: true })
  }
  const onInterrupt = () => {
    cleanUp()
    process.exit(130)
  }
  process.once('SIGINT', onInterrupt)
  try {
    await writeApplication(staging, options)
    moveIntoPlace(staging, targetDir, options.overwrite)
  } catch (error) {
    cleanUp()
    throw error
  } finally {
    process.off('SIGINT', onInterrupt)
  }
}

async function writeApplication(dir: string, { templateDir, packageName, runtime }: ScaffoldOptions): Promise<void> {
  cpSync(templateDir, dir, { recursive: true })
  renameSync(join(dir, '_gitignore'), join(dir, '.gitignore'))

  for (const file of NAMED_FILES) {
    const path = join(dir, file)
    if (existsSync(path)) writeFileSync(path, readFileSync(path, 'utf8').replaceAll('__PROJECT_NAME__', packageName))
  }
  writeFileSync(join(dir, '.env'), withFreshKeys(readFileSync(join(dir, '.env.example'), 'utf8')))

  const packageJsonPath = join(dir, 'package.json')
  const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
    name: string
    dependencies: Record<string, string>
  }
  packageJson.name = packageName
  packageJson.dependencies['fw-runtime'] = runtime.kind === 'spec' ? runtime.spec : await packRuntime(runtime.runtimeDir, dir)
  writeFileSync(packageJsonPath, `${JSON.stringify(packageJson, null, 2)}\n`)
}

/** `.env.example` with an empty `APP_KEY=` and `API_KEY=` filled with new random secrets. */
function withFreshKeys(example: string): string {
  return example
    .replace(/^APP_KEY=$/m, `APP_KEY=${generateAppKey()}`)
    .replace(/^API_KEY=$/m, `API_KEY=${randomBytes(24).toString('hex')}`)
}

function moveIntoPlace(staging: string, targetDir: string, overwrite: boolean): void {
  if (!existsSync(targetDir)) {
    renameSync(staging, targetDir)
    return
  }
  if (overwrite) {
    for (const entry of readdirSync(targetDir)) {
      if (entry !== '.git') rmSync(join(targetDir, entry), { recursive: true, force: true })
    }
  }
  for (const entry of readdirSync(staging)) renameSync(join(staging, entry), join(targetDir, entry))
  rmSync(staging, { recursive: true, force: true })
}
