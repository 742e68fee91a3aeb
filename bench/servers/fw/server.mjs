// The Fw application's entry point, as a built app runs it: compiled JavaScript, plain node, no tsx.
import { Container, Router, start } from 'fw-runtime'

const router = new Router(Container.getInstance())
await router.loadRoutesFromFile(new URL('./routes/web.js', import.meta.url))
await start(router)
