import type { IncomingMessage, ServerResponse } from 'node:http'
import { Container, loadEnv, Request, Router, start } from 'fw-runtime'
import { configure } from '../bootstrap/app.js'

loadEnv()                                                                        // 1. configuration from .env
const container = Container.getInstance()                                        // 2. the service container
const router = new Router(container)                                             // 3. the router,
configure(container, router)                                                     //    set up in bootstrap/app.ts
await router.loadRoutesFromFile(new URL('../routes/web.ts', import.meta.url))    // 4. the routes

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = await Request.capture(req)                                     // 5. capture the request
  const response = await router.dispatch(request)                                // 6. dispatch it to a route
  response.send(res)                                                             // 7. send the response
}

await start(handle)
