// template/api/public/index.ts as `tsc -p tsconfig.build.json` emits it: the entry `npm start` runs.
// The database is the `db` service: DATABASE_URL (postgres://… or sqlite:…) names it.
import { Container, loadEnv, Request, Router, start } from 'fw-runtime';
loadEnv(); // 1. configuration from .env
const container = Container.getInstance(); // 2. the service container
const router = new Router(container); // 3. the router
await router.loadRoutesFromFile(new URL('../routes/web.ts', import.meta.url)); // 4. the routes
async function handle(req, res) {
    const request = await Request.capture(req); // 5. capture the request
    const response = await router.dispatch(request); // 6. dispatch it to a route
    response.send(res); // 7. send the response
}
await start(handle);
