import { Route } from 'fw-runtime'
import { z } from 'zod'
import { DataController, dataQuery } from '#app/Controllers/Api/DataController.js'
import { PostController, postsPage, postsQuery } from '#app/Controllers/Api/PostController.js'
import { newTask, TaskController, taskChanges, taskOut } from '#app/Controllers/Api/TaskController.js'
import { UserController as ApiUserController, newUser } from '#app/Controllers/Api/UserController.js'
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

// The API routes declare their contracts (body, query, responses): GET /openapi.json in development, and
// `fw openapi`, describe them. A declared body is validated where the controller calls request.validate().
Route.group({ prefix: '/api' }, () => {
  Route.get('/tasks', [TaskController, 'index']).returns(200, z.object({ tasks: z.array(taskOut), count: z.number().int() }))
  Route.get('/tasks/{id}', [TaskController, 'show']).returns(200, z.object({ task: taskOut })).returns(404, undefined, 'No task with that id')
  Route.post('/tasks', [TaskController, 'store']).body(newTask).returns(201, z.object({ message: z.string(), task: taskOut }))
  Route.put('/tasks/{id}', [TaskController, 'update']).body(taskChanges)
  Route.delete('/tasks/{id}', [TaskController, 'destroy'])

  Route.post('/users', [ApiUserController, 'store'])
    .body(newUser)
    .returns(201, undefined, 'The user, created')
    .returns(400, undefined, 'Name and email are required')
    .returns(422, undefined, 'Invalid email format')
    .returns(401, undefined, 'No valid X-API-Key header')
  Route.get('/posts', [PostController, 'index']).query(postsQuery).returns(200, postsPage)
  Route.get('/data', [DataController, 'show']).query(dataQuery).returns(200).returns(400, undefined, 'Invalid format')
})
