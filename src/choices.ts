import { basename, resolve } from 'node:path'
import prompts from 'prompts'
import { TEMPLATES, type CliArgs, type Template } from './args.js'
import { CliError } from './CliError.js'
import { isValidPackageName, toValidPackageName } from './packageName.js'
import { isEmptyDir } from './scaffold.js'

export const DEFAULT_DIR = 'my-fw-app'

/** What to create, once every question is answered. */
export interface Choices {
  /** As the user typed it, for messages and `cd`. */
  dir: string
  targetDir: string
  packageName: string
  template: Template
  overwrite: boolean
}

const onCancel = () => {
  throw new CliError('Cancelled; nothing was written')
}

/** Defaults for what the command line leaves out; never asks, so it cannot hang without a terminal. */
export function defaultChoices(args: CliArgs): Choices {
  const dir = args.dir ?? DEFAULT_DIR
  const targetDir = resolve(dir)
  const packageName = basename(targetDir)
  if (!isValidPackageName(packageName)) {
    throw new CliError(
      `"${packageName}" is not a valid npm package name (lower case, no spaces); try: create-fw-app ${toValidPackageName(packageName)}`,
    )
  }
  if (!args.overwrite && !isEmptyDir(targetDir)) {
    throw new CliError(`${dir} is not empty: choose another directory, or pass --overwrite to replace its files (.git is kept)`)
  }
  return { dir, targetDir, packageName, template: args.template ?? 'api', overwrite: args.overwrite }
}

/** Asks, on a terminal, for what the command line leaves out. */
export async function askChoices(args: CliArgs): Promise<Choices> {
  let dir = args.dir
  if (dir === undefined) {
    const answer = await prompts(
      {
        type: 'text',
        name: 'dir',
        message: 'Project name:',
        initial: DEFAULT_DIR,
        validate: (value: string) => value.trim() !== '' || 'A name is needed',
      },
      { onCancel },
    )
    dir = (answer.dir as string).trim()
  }
  const targetDir = resolve(dir)

  let overwrite = args.overwrite
  if (!overwrite && !isEmptyDir(targetDir)) {
    const answer = await prompts(
      {
        type: 'confirm',
        name: 'overwrite',
        message: `${dir} is not empty. Remove its files (.git is kept) and continue?`,
        initial: false,
      },
      { onCancel },
    )
    if (!answer.overwrite) throw new CliError(`Cancelled: ${dir} is not empty; nothing was written`)
    overwrite = true
  }

  let packageName = basename(targetDir)
  if (!isValidPackageName(packageName)) {
    const answer = await prompts(
      {
        type: 'text',
        name: 'packageName',
        message: 'Package name:',
        initial: toValidPackageName(packageName),
        validate: (value: string) => isValidPackageName(value) || 'Not a valid npm package name (lower case, no spaces)',
      },
      { onCancel },
    )
    packageName = answer.packageName as string
  }

  let template = args.template
  if (template === undefined) {
    const answer = await prompts(
      {
        type: 'select',
        name: 'template',
        message: 'Starter:',
        choices: [
          { title: 'api', description: 'every sample route: users, tasks, an API key check, health, posts…', value: 'api' },
          { title: 'minimal', description: 'GET / only', value: 'minimal' },
        ],
        initial: 0,
      },
      { onCancel },
    )
    template = answer.template as Template
  }
  if (!TEMPLATES.includes(template)) throw new CliError(`Unknown template "${String(template)}"`)

  return { dir, targetDir, packageName, template, overwrite }
}
