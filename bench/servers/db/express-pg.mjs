// express 5 with pg, as its docs start an app.
import express from 'express'
import { fortunes, latestPosts, updateWorlds, world, worlds } from './pg-queries.mjs'
import { fortunesPage, queryCount } from './tfb.mjs'

const app = express()
app.get('/json', (req, res) => res.json({ message: 'Hello, World!' }))
app.get('/plaintext', (req, res) => res.type('text/plain').send('Hello, World!'))
app.get('/db', async (req, res) => res.json(await world()))
app.get('/queries', async (req, res) => res.json(await worlds(queryCount(req.query.queries))))
app.get('/updates', async (req, res) => res.json(await updateWorlds(queryCount(req.query.queries))))
app.get('/fortunes', async (req, res) => res.type('html').send(fortunesPage(await fortunes())))
app.get('/posts', async (req, res) => res.json(await latestPosts()))
app.listen(Number(process.env.PORT), '127.0.0.1')
