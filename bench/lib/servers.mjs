import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const bench = fileURLToPath(new URL('..', import.meta.url))

function version(name, from = `${bench}node_modules/${name}`) {
  try {
    return JSON.parse(readFileSync(`${from}/package.json`, 'utf8')).version
  } catch {
    return '?'
  }
}

/**
 * The servers measured, in table order. `baseline` is the one every ratio is taken against.
 * `optional` servers run only when named with `--servers`.
 */
export function serverList() {
  const runtime = version('fw-runtime', fileURLToPath(new URL('../../runtime', import.meta.url)))
  return [
    { id: 'fw', label: `Fw (fw-runtime ${runtime}, polka)`, file: 'servers/fw/public/index.js' },
    {
      id: 'fw-node',
      label: `Fw (fw-runtime ${runtime}, node:http)`,
      file: 'servers/fw/public/index.js',
      env: { FW_SERVER: 'node' },
      optional: true,
    },
    { id: 'polka-next', label: `polka ${version('polka-next')} (bare)`, file: 'servers/polka-next.mjs', baseline: true },
    { id: 'node-http', label: `node:http ${process.versions.node} (bare)`, file: 'servers/node-http.mjs' },
    { id: 'polka-0.5', label: `polka ${version('polka')} (bare)`, file: 'servers/polka-0.5.mjs' },
    { id: 'fastify', label: `fastify ${version('fastify')}`, file: 'servers/fastify.mjs' },
    { id: 'hono', label: `hono ${version('hono')} (@hono/node-server ${version('@hono/node-server')})`, file: 'servers/hono.mjs' },
    { id: 'express', label: `express ${version('express')}`, file: 'servers/express.mjs' },
  ]
}
