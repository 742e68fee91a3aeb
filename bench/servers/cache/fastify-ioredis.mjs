// fastify 5 with ioredis used directly, as their docs start them: logger off, one client with its default settings.
// GET /cached remembers by hand what Fw's cache().remember does on Redis: read the key; on a miss, compute the value
// and store it as JSON for 60 s.
import Fastify from 'fastify'
import { Redis } from 'ioredis'

const redis = new Redis(process.env.REDIS_URL)
const app = Fastify({ logger: false })
app.get('/cached', async () => {
  const stored = await redis.get('bench:greeting')
  if (stored !== null) return { greeting: JSON.parse(stored) }
  const greeting = 'Hello, World!'
  await redis.set('bench:greeting', JSON.stringify(greeting), 'EX', 60)
  return { greeting }
})
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
