// hono 4 on @hono/node-server with pg, as its docs start an app.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { fortunes, latestPosts, updateWorlds, world, worlds } from './pg-queries.mjs'
import { fortunesPage, queryCount } from './tfb.mjs'

const app = new Hono()
app.get('/json', (c) => c.json({ message: 'Hello, World!' }))
app.get('/plaintext', (c) => c.text('Hello, World!'))
app.get('/db', async (c) => c.json(await world()))
app.get('/queries', async (c) => c.json(await worlds(queryCount(c.req.query('queries')))))
app.get('/updates', async (c) => c.json(await updateWorlds(queryCount(c.req.query('queries')))))
app.get('/fortunes', async (c) => c.html(fortunesPage(await fortunes())))
app.get('/posts', async (c) => c.json(await latestPosts()))
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' })
