// routes/web.ts of an app answering TechEmpower's test types, compiled.
import { Route } from 'fw-runtime';
import { FortuneController } from '../App/Controllers/FortuneController.js';
import { HelloController } from '../App/Controllers/HelloController.js';
import { PostController } from '../App/Controllers/PostController.js';
import { WorldController } from '../App/Controllers/WorldController.js';
Route.get('/json', [HelloController, 'json']);
Route.get('/plaintext', [HelloController, 'plaintext']);
Route.get('/db', [WorldController, 'show']);
Route.get('/queries', [WorldController, 'index']);
Route.get('/updates', [WorldController, 'update']);
Route.get('/fortunes', [FortuneController, 'index']);
Route.get('/posts', [PostController, 'index']);
