/**
 * A private npm registry for end-to-end tests: verdaccio on 127.0.0.1 with its storage in a
 * temporary folder, proxying every package it does not hold to the normal registry.
 *
 * ```ts
 * const registry = await startRegistry(['fw-runtime', 'create-fw-app'])  // names published only here
 * await registry.publish('/path/to/package.tgz')
 * // npm with npm_config_registry=registry.url now installs from it
 * await registry.stop()
 * ```
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runOk } from './process.js'
import { freePort } from '../../runtime/test/support/freePort.js'

export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  url: string
  /** A folder of the registry's own, removed by stop(): a place for an npm cache, packs, apps. */
  dir: string
  /** Publishes a package folder or tarball as a registered user. */
  publish(spec: string): Promise<void>
  stop(): Promise<void>
}

const verdaccio = fileURLToPath(new URL('../../node_modules/verdaccio/bin/verdaccio', import.meta.url))

/** Starts verdaccio; `localOnly` names are never looked up upstream, so a local publish always wins. */
export async function startRegistry(localOnly: string[]): Promise<Registry> {
  const dir = mkdtempSync(join(tmpdir(), 'fw-registry-'))
  const upstream = process.env.npm_config_registry || 'https://registry.npmjs.org/'
  const local = localOnly.map((name) => `  '${name}':\n    access: $all\n    publish: $authenticated\n`).join('')
  writeFileSync(
    join(dir, 'config.yaml'),
    `storage: ${join(dir, 'storage')}
auth:
  htpasswd:
    file: ${join(dir, 'htpasswd')}
    max_users: 10
uplinks:
  upstream:
    url: ${upstream}
    timeout: 120s
packages:
${local}  '**':
    access: $all
    proxy: upstream
log: { type: stdout, format: pretty, level: warn }
`,
  )
  mkdirSync(join(dir, 'storage'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const child = spawn(process.execPath, [verdaccio, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    const deadline = Date.now() + 60_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${output}`)
      const ready = await fetch(`${url}-/ping`).then((response) => response.ok, () => false)
      if (ready) break
      if (Date.now() > deadline) throw new Error(`verdaccio did not answer within 60 s:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const user = await fetch(`${url}-/user/org.couchdb.user:fw`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'fw', password: 'fw-e2e-password', email: 'fw@example.com' }),
    })
    if (!user.ok) throw new Error(`verdaccio refused a new user: ${user.status} ${await user.text()}`)
    const { token } = (await user.json()) as { token: string }
    const auth = `--//127.0.0.1:${port}/:_authToken=${token}`

    return {
      url,
      dir,
      publish: async (spec) => {
        await runOk('npm', ['publish', spec, `--registry=${url}`, auth, '--ignore-scripts', '--access=public'], { cwd: dir })
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
