// App/Controllers/BoundWorldController.ts, compiled: GET /world/{world} two ways, for the paired measurement of route
// model binding (bench/README.md): the row bound by the route, or found by hand as an app without binding would.
import { Response } from 'fw-runtime';
import { World } from '../Models/World.js';
export class BoundWorldController {
    /** `.bind('world', World)`: the row comes in place of the id. */
    show(_request, world) {
        return Response.json(world);
    }
    /** The same answer, with `findOrFail` at the top of the handler. */
    async find(_request, id) {
        return Response.json(await World.findOrFail(id));
    }
}
