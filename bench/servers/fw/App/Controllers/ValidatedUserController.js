// POST /users validating its body, the two ways an Fw app can, for the paired measurement of route contracts
// (routes/web.js loads this file only when BENCH_VALIDATE is set, so that the plain server never loads zod).
import { Response } from 'fw-runtime';
import { z } from 'zod';
/** What POST /users accepts: the echo case's body, every field declared, so that the validated output is the body. */
export const newUser = z.object({ name: z.string().min(1), email: z.email(), roles: z.array(z.string()), active: z.boolean() });
export class ValidatedUserController {
    /** POST /users, validated with the schema in the handler (BENCH_VALIDATE=schema). */
    async storeValidated(request) {
        const user = await request.validate(newUser);
        return Response.json({ message: 'User created', user }, 201);
    }
    /** POST /users, validated against the body its route declares (BENCH_VALIDATE=declared). */
    async storeDeclared(request) {
        const user = await request.validate();
        return Response.json({ message: 'User created', user }, 201);
    }
}
