// fastify 5 with bentocache used directly, as their docs start them: logger off, one memory store (the LRU Fw's
// memory store also uses, with as many items) and getOrSet, bentocache's remember.
import { BentoCache, bentostore } from 'bentocache'
import { memoryDriver } from 'bentocache/drivers/memory'
import Fastify from 'fastify'

const bento = new BentoCache({ default: 'memory', stores: { memory: bentostore().useL1Layer(memoryDriver({ maxItems: 10_000 })) } })
const app = Fastify({ logger: false })
app.get('/cached', async () => ({ greeting: await bento.getOrSet({ key: 'greeting', ttl: '60s', factory: () => 'Hello, World!' }) }))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
