import { Route } from 'fw-runtime'
import { HomeController, welcome } from '#app/Controllers/HomeController.js'

// Each route declares what it answers (.returns; .body and .query for what it takes): GET /openapi.json (and /docs)
// in development, and `fw openapi`, describe them.
Route.get('/', [HomeController, 'index']).returns(200, welcome, 'The framework is running')
