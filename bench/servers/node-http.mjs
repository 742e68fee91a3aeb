// Bare node:http: the ceiling. Routes by the first path segment in a Map, the cheapest honest router.
import { createServer } from 'node:http'

const json = (res, status, data) => {
  const body = JSON.stringify(data)
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

const extra = new Map()
for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) extra.set(`res${i}`, (res, id) => json(res, 200, { id }))

createServer((req, res) => {
  const url = req.url
  const path = url.includes('?') ? url.slice(0, url.indexOf('?')) : url
  if (path === '/hello' && req.method === 'GET') return json(res, 200, { message: 'Hello, World!' })
  if (path === '/users' && req.method === 'POST') {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      try {
        json(res, 201, { message: 'User created', user: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      } catch {
        json(res, 400, { error: 'Invalid JSON body' })
      }
    })
    return
  }
  const parts = path.split('/')
  if (parts.length === 3 && req.method === 'GET' && parts[2] !== '') {
    if (parts[1] === 'users') return json(res, 200, { user: { id: Number(parts[2]), name: `User ${parts[2]}` } })
    const handler = extra.get(parts[1])
    if (handler) return handler(res, parts[2])
  }
  json(res, 404, { error: 'Not Found' })
}).listen(Number(process.env.PORT), '127.0.0.1')
