// routes/web.ts of an app answering TechEmpower's test types, compiled.
import { Route } from 'fw-runtime';
import { BoundWorldController } from '../App/Controllers/BoundWorldController.js';
import { FortuneController } from '../App/Controllers/FortuneController.js';
import { HelloController } from '../App/Controllers/HelloController.js';
import { PostController } from '../App/Controllers/PostController.js';
import { WorldController } from '../App/Controllers/WorldController.js';
import { World } from '../App/Models/World.js';
Route.get('/json', [HelloController, 'json']);
Route.get('/plaintext', [HelloController, 'plaintext']);
Route.get('/db', [WorldController, 'show']);
Route.get('/queries', [WorldController, 'index']);
Route.get('/updates', [WorldController, 'update']);
Route.get('/fortunes', [FortuneController, 'index']);
Route.get('/posts', [PostController, 'index']);
// Route model binding against findOrFail by hand, the same path either way (the servers fw-bound and fw-by-hand).
if (process.env.BENCH_BINDING === 'hand')
    Route.get('/world/{world}', [BoundWorldController, 'find']);
else
    Route.get('/world/{world}', [BoundWorldController, 'show']).bind('world', World);
