// App/Controllers/FortuneController.ts, compiled: TechEmpower's /fortunes, rendered with Fw's `html` template
// (every interpolated value escaped), the query built once (`compileQuery`).
import { compileQuery, html, Response } from 'fw-runtime';
const allFortunes = compileQuery((db) => db.selectFrom('fortune').select(['id', 'message']));
export class FortuneController {
    db;
    constructor({ db }) {
        this.db = db;
    }
    /** GET /fortunes: every fortune and one added now, sorted by message, as an HTML table. */
    async index() {
        const fortunes = await allFortunes.execute(this.db);
        fortunes.push({ id: 0, message: 'Additional fortune added at request time.' });
        fortunes.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
        const page = html `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${fortunes.map((fortune) => html `<tr><td>${fortune.id}</td><td>${fortune.message}</td></tr>`)}</table></body></html>`;
        return Response.html(page.toString());
    }
}
