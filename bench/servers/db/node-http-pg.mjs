// Bare node:http + pg: the practical limit of the db suite. Routes in an object, writeHead and end.
import { createServer } from 'node:http'
import { fortunes, latestPosts, updateWorlds, world, worlds } from './pg-queries.mjs'
import { fortunesPage, queryCount } from './tfb.mjs'

const send = (res, type, body) => {
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}
const json = (res, data) => send(res, 'application/json', JSON.stringify(data))

const routes = {
  '/json': (res) => json(res, { message: 'Hello, World!' }),
  '/plaintext': (res) => send(res, 'text/plain', 'Hello, World!'),
  '/db': async (res) => json(res, await world()),
  '/queries': async (res, search) => json(res, await worlds(queryCount(search.get('queries')))),
  '/updates': async (res, search) => json(res, await updateWorlds(queryCount(search.get('queries')))),
  '/fortunes': async (res) => send(res, 'text/html; charset=utf-8', fortunesPage(await fortunes())),
  '/posts': async (res) => json(res, await latestPosts()),
}

createServer((req, res) => {
  const at = req.url.indexOf('?')
  const route = req.method === 'GET' ? routes[at === -1 ? req.url : req.url.slice(0, at)] : undefined
  if (!route) return res.writeHead(404).end()
  route(res, new URLSearchParams(at === -1 ? '' : req.url.slice(at + 1)))?.catch?.((error) => {
    console.error(error)
    res.writeHead(500).end()
  })
}).listen(Number(process.env.PORT), '127.0.0.1')
