// App/Controllers/WorldController.ts, compiled: TechEmpower's /db, /queries and /updates on the `world` table,
// with the database injected as the README shows (`constructor({ db }: Cradle)`), the query built once
// (`compileQuery`, README "Queries a route runs often").
import { compileQuery, Response, updateMany } from 'fw-runtime';
const randomId = () => 1 + Math.floor(Math.random() * 10000);
const worldById = compileQuery((db, id) => db.selectFrom('world').select(['id', 'randomNumber']).where('id', '=', id));
/** TechEmpower's rule: missing, not a number or below 1 is 1; above 500 is 500. */
function queryCount(value) {
    const n = Number.parseInt(value ?? '', 10);
    return Number.isNaN(n) || n < 1 ? 1 : n > 500 ? 500 : n;
}
export class WorldController {
    db;
    constructor({ db }) {
        this.db = db;
    }
    /** GET /db: one random row. */
    async show() {
        return Response.json(await this.find(randomId()));
    }
    /** GET /queries?queries=N: N random rows, one query each. */
    async index(request) {
        return Response.json(await this.random(queryCount(request.get('queries'))));
    }
    /** GET /updates?queries=N: N random rows, each given a new random number, saved in one statement. */
    async update(request) {
        const worlds = await this.random(queryCount(request.get('queries')));
        for (const world of worlds)
            world.randomNumber = randomId();
        await updateMany(this.db, 'world', worlds);
        return Response.json(worlds);
    }
    random(count) {
        return Promise.all(Array.from({ length: count }, () => this.find(randomId())));
    }
    find(id) {
        return worldById.executeTakeFirstOrThrow(this.db, id);
    }
}
