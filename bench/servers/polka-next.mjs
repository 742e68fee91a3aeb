// polka 1.0.0-next.28, bare: the HTTP layer Fw is built on, with no framework above it.
import polka from 'polka-next'

const json = (res, status, data) => {
  const body = JSON.stringify(data)
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

const parseJson = (req, res, next) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    try {
      req.body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      next()
    } catch {
      json(res, 400, { error: 'Invalid JSON body' })
    }
  })
}

const app = polka()
for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) app.get(`/res${i}/:id`, (req, res) => json(res, 200, { id: req.params.id }))
app
  .get('/hello', (req, res) => json(res, 200, { message: 'Hello, World!' }))
  .get('/users/:id', (req, res) => json(res, 200, { user: { id: Number(req.params.id), name: `User ${req.params.id}` } }))
  .post('/users', parseJson, (req, res) => json(res, 201, { message: 'User created', user: req.body }))
  .listen(Number(process.env.PORT), '127.0.0.1')
