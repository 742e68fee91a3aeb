// express 5 with express.json() on the route that takes a body.
import express from 'express'

const app = express()
for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) app.get(`/res${i}/:id`, (req, res) => res.json({ id: req.params.id }))
app.get('/hello', (req, res) => res.json({ message: 'Hello, World!' }))
app.get('/users/:id', (req, res) => res.json({ user: { id: Number(req.params.id), name: `User ${req.params.id}` } }))
app.post('/users', express.json(), (req, res) => res.status(201).json({ message: 'User created', user: req.body }))
app.listen(Number(process.env.PORT), '127.0.0.1')
