// What GET /users/{id} answers, declared with .returns(200, shownUser) for the paired measurement of response
// contracts (routes/web.js loads this file only when BENCH_RETURNS is set, so that the plain server never loads zod).
import { z } from 'zod';
/** The user case's answer, every field declared, so that the shaped answer is the same as the plain one. */
export const shownUser = z.object({ user: z.object({ id: z.number().int(), name: z.string() }) });
