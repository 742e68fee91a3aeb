// template/api/App/Controllers/UserController.ts, compiled (show and store only).
import { Response } from 'fw-runtime';
export class UserController {
    /** GET /users/{id} */
    show(_request, id) {
        if (!/^\d+$/.test(id))
            return Response.error('Invalid user ID', 400);
        return Response.json({ user: { id: Number(id), name: `User ${id}` } });
    }
    /** POST /users: echoes the input back. */
    store(request) {
        return Response.json({ message: 'User created', user: request.all() }, 201);
    }
}
