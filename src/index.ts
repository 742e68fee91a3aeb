#!/usr/bin/env node
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bold, cyan, dim, green, red, yellow } from 'kolorist'
import { HELP, parseCliArgs } from './args.js'
import { askChoices, defaultChoices } from './choices.js'
import { CliError } from './CliError.js'
import { initRepository } from './git.js'
import { installDependencies } from './install.js'
import { hasMigrations, migrateDatabase } from './migrate.js'
import { detectPackageManager, runScript } from './packageManager.js'
import { chooseRuntimeDependency, readVersion } from './runtimeDependency.js'
import { scaffold } from './scaffold.js'

/** The folder holding package.json, dist/ and template/ (and runtime/ in a source checkout). */
const packageRoot = fileURLToPath(new URL('..', import.meta.url))

function runsInCi(): boolean {
  const ci = process.env.CI
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false'
}

/** The oldest Node.js line Fw supports: 20 reached its end of life, and better-sqlite3 13 and kysely 0.29 need 22. */
const NODE_FLOOR = 22

async function main(argv: string[]): Promise<void> {
  const major = Number(process.versions.node.split('.')[0])
  if (major < NODE_FLOOR) {
    throw new CliError(`Fw needs Node.js ${NODE_FLOOR} or newer, and this is Node.js ${process.versions.node}: install the current LTS (24) from https://nodejs.org, then run this again`)
  }
  const args = parseCliArgs(argv)
  const version = readVersion(join(packageRoot, 'package.json'))
  if (args.help) return console.log(HELP)
  if (args.version) return console.log(version)

  const interactive = process.stdin.isTTY === true && !args.yes && !runsInCi()
  const choices = interactive ? await askChoices(args) : defaultChoices(args)
  const shownDir = relative(process.cwd(), choices.targetDir) || '.'

  console.log(`\nCreating an Fw application (${choices.template} starter) in ${cyan(shownDir)}…`)
  await scaffold({
    templateDir: join(packageRoot, 'template', choices.template),
    targetDir: choices.targetDir,
    packageName: choices.packageName,
    runtime: chooseRuntimeDependency(packageRoot, version, args.runtime),
    overwrite: choices.overwrite,
  })
  console.log(`${green('✔')} Wrote ${choices.packageName} with a fresh APP_KEY and API_KEY in .env`)

  const pm = args.pm ?? detectPackageManager()
  if (args.install) await installDependencies(pm, choices.targetDir, shownDir)
  // The starter's tables, so that its first request finds them; without the dependencies, a next step says to.
  let migrated = !hasMigrations(choices.targetDir)
  if (args.install && !migrated) {
    const failure = await migrateDatabase(pm, choices.targetDir)
    migrated = failure === undefined
    if (migrated) console.log(`${green('✔')} Created the database, database/database.sqlite, with the starter's tables`)
    else console.log(`${yellow('!')} The database was not created (${failure}): run "${runScript(pm, 'migrate')}" in ${shownDir}`)
  }

  if (args.git) {
    const git = initRepository(choices.targetDir)
    if (git === 'committed') console.log(`${green('✔')} Created a git repository with a first commit`)
    if (git === 'no-git') console.log(`${yellow('!')} git was not found: no repository was created`)
    if (git === 'commit-failed') {
      console.log(`${yellow('!')} The first git commit failed (is git's user.name/user.email set?): no repository was created`)
    }
  }

  const steps = [
    ...(shownDir === '.' ? [] : [`cd ${/\s/.test(shownDir) ? JSON.stringify(shownDir) : shownDir}`]),
    ...(args.install ? [] : [`${pm} install`]),
    ...(migrated ? [] : [`${runScript(pm, 'migrate')}    ${dim("# the starter's tables, in database/database.sqlite")}`]),
    `${runScript(pm, 'dev')}    ${dim('# http://127.0.0.1:8000')}`,
    runScript(pm, 'test'),
  ]
  console.log(`\n${bold('Done.')} Now run:\n\n${steps.map((step) => `  ${step}`).join('\n')}\n`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof CliError ? error.message : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`
  console.error(`${red('✖')} ${message}`)
  process.exit(1)
})
