import { Route } from 'fw-runtime'
import { DataController } from '#app/Controllers/Api/DataController.js'
import { PostController } from '#app/Controllers/Api/PostController.js'
import { TaskController } from '#app/Controllers/Api/TaskController.js'
import { UserController as ApiUserController } from '#app/Controllers/Api/UserController.js'
import { DownloadController } from '#app/Controllers/DownloadController.js'
import { HealthController } from '#app/Controllers/HealthController.js'
import { HomeController } from '#app/Controllers/HomeController.js'
import { UserController } from '#app/Controllers/UserController.js'

Route.get('/', [HomeController, 'index'])
Route.get('/hello', [HomeController, 'hello'])
Route.get('/greet/{name}', [HomeController, 'greet'])

Route.get('/users', [UserController, 'index'])
Route.get('/users/{id}', [UserController, 'show'])
Route.post('/users', [UserController, 'store'])
Route.put('/users/{id}', [UserController, 'update'])
Route.delete('/users/{id}', [UserController, 'destroy'])

Route.get('/health', [HealthController, 'show'])
Route.get('/download', [DownloadController, 'show'])

Route.group({ prefix: '/api' }, () => {
  Route.get('/tasks', [TaskController, 'index'])
  Route.get('/tasks/{id}', [TaskController, 'show'])
  Route.post('/tasks', [TaskController, 'store'])
  Route.put('/tasks/{id}', [TaskController, 'update'])
  Route.delete('/tasks/{id}', [TaskController, 'destroy'])

  Route.post('/users', [ApiUserController, 'store'])
  Route.get('/posts', [PostController, 'index'])
  Route.get('/data', [DataController, 'show'])
})
