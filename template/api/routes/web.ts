import { Route } from 'fw-runtime'
import { z } from 'zod'
import { DataController, dataOut, dataQuery } from '#app/Controllers/Api/DataController.js'
import { PostController, postsPage, postsQuery } from '#app/Controllers/Api/PostController.js'
import { newTask, TaskController, taskChanges, taskOut } from '#app/Controllers/Api/TaskController.js'
import { UserController as ApiUserController, checkNewUser, createdUser, newUser } from '#app/Controllers/Api/UserController.js'
import { DownloadController } from '#app/Controllers/DownloadController.js'
import { health, HealthController } from '#app/Controllers/HealthController.js'
import { greeting, HomeController, welcome } from '#app/Controllers/HomeController.js'
import { sampleUser, UserController, userInput } from '#app/Controllers/UserController.js'
import { requireApiKey } from '#app/Middleware/requireApiKey.js'

// Every route declares what it takes (.body, .query) and answers (.returns): GET /openapi.json (and /docs) in
// development, and `fw openapi`, describe them, and `fw types` types the client from them (.fw/api.d.ts). A declared
// body is validated where the controller calls request.validate().
Route.get('/', [HomeController, 'index']).returns(200, welcome, 'The framework is running')
Route.get('/hello', [HomeController, 'hello']).returns(200, greeting, 'A greeting')
Route.get('/greet/{name}', [HomeController, 'greet']).returns(200, greeting, 'A greeting by name')

Route.get('/users', [UserController, 'index']).returns(200, z.object({ users: z.array(sampleUser) }), 'The sample users')
Route.get('/users/{id}', [UserController, 'show'])
  .returns(200, z.object({ user: sampleUser }), 'The user of that id')
  .returns(400, undefined, 'Invalid user ID: not a number')
Route.post('/users', [UserController, 'store'])
  .body(userInput)
  .returns(201, z.object({ message: z.string(), user: userInput }), 'The input, echoed')
Route.put('/users/{id}', [UserController, 'update']).body(userInput).returns(200, z.object({ updated: z.string() }), 'The id of the user updated')
Route.delete('/users/{id}', [UserController, 'destroy']).returns(200, z.object({ deleted: z.string() }), 'The id of the user deleted')

Route.get('/health', [HealthController, 'show']).returns(200, health, 'The services answer').returns(503, health, 'A service does not answer')
Route.get('/download', [DownloadController, 'show']).returns(200, 'text/plain', 'A sample file, as an attachment')

Route.group({ prefix: '/api' }, () => {
  // The task API, on the `tasks` table (App/Models/Task.ts).
  Route.get('/tasks', [TaskController, 'index']).returns(200, z.object({ tasks: z.array(taskOut), count: z.number().int() }), 'Every task')
  Route.get('/tasks/{id}', [TaskController, 'show']).returns(200, z.object({ task: taskOut }), 'The task').returns(404, undefined, 'Task not found')
  Route.post('/tasks', [TaskController, 'store']).body(newTask).returns(201, z.object({ message: z.string(), task: taskOut }), 'The task, created')
  Route.put('/tasks/{id}', [TaskController, 'update'])
    .body(taskChanges)
    .returns(200, z.object({ message: z.string(), task: taskOut }), 'The task, updated')
    .returns(404, undefined, 'Task not found')
  Route.delete('/tasks/{id}', [TaskController, 'destroy'])
    .returns(200, z.object({ message: z.string(), id: z.number().int() }), 'The task is deleted')
    .returns(404, undefined, 'Task not found')

  // The input first (400, 422), then the key (401): each middleware puts its answers in the document.
  Route.post('/users', [ApiUserController, 'store'])
    .middleware(checkNewUser, requireApiKey)
    .body(newUser)
    .returns(201, createdUser, 'The user, created')
  Route.get('/posts', [PostController, 'index']).query(postsQuery).returns(200, postsPage, 'A page of posts')
  Route.get('/data', [DataController, 'show'])
    .query(dataQuery)
    .returns(200, [dataOut, 'text/plain', 'text/html'], 'The items: JSON, or text with ?format=text, or HTML with ?format=html')
    .returns(400, undefined, 'Invalid format')
})
