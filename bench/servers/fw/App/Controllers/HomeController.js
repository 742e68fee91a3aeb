// template/api/App/Controllers/HomeController.ts, compiled (GET /hello only).
import { Response } from 'fw-runtime';
export class HomeController {
    /** GET /hello */
    hello() {
        return Response.json({ message: 'Hello, World!' });
    }
}
