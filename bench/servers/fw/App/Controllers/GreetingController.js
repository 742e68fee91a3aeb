// GET /cached for the cache suite (loaded only with BENCH_CACHE): the same answer read through cache().remember, on
// the store CACHE_STORE names, or returned as a constant. Both handlers are async so that the pair differs by the
// cache call alone.
import { Response } from 'fw-runtime';
import { cache } from 'fw-runtime/cache';
export class GreetingController {
    /** GET /cached, BENCH_CACHE=constant: the value, with no cache. */
    async constant() {
        return Response.json({ greeting: 'Hello, World!' });
    }
    /** GET /cached, BENCH_CACHE=remember: the value remembered for 60 s. */
    async remembered() {
        return Response.json({ greeting: await cache().remember('greeting', 60, () => 'Hello, World!') });
    }
}
