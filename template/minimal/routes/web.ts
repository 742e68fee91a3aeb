import { Route } from 'fw-runtime'
import { HomeController } from '../App/Controllers/HomeController.js'

Route.get('/', [HomeController, 'index'])
