import { Route } from 'fw-runtime'
import { HomeController } from '#app/Controllers/HomeController.js'

Route.get('/', [HomeController, 'index'])
