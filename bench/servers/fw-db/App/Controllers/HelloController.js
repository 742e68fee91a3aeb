// App/Controllers/HelloController.ts, compiled: TechEmpower's /json and /plaintext.
import { Response } from 'fw-runtime';
export class HelloController {
    /** GET /json */
    json() {
        return Response.json({ message: 'Hello, World!' });
    }
    /** GET /plaintext */
    plaintext() {
        return Response.text('Hello, World!');
    }
}
