import { db, Response, sql } from 'fw-runtime'
import { z } from 'zod'

/** What GET /health answers, up (200) or down (503), for its route's contract (routes/web.ts). */
export const health = z.object({
  status: z.enum(['healthy', 'unhealthy']),
  database: z.enum(['up', 'down']),
  timestamp: z.number().int().describe('Unix seconds'),
})

/** How long the database has to answer before the check counts it as down. */
const DATABASE_TIMEOUT_MS = 2_000

export class HealthController {
  /**
   * GET /health: for load balancers and uptime checks, so never cached. 200 while the database answers,
   * 503 when it does not, so that a load balancer sends traffic elsewhere.
   */
  async show(): Promise<Response> {
    const up = await databaseAnswers()
    return Response.json(
      { status: up ? 'healthy' : 'unhealthy', database: up ? 'up' : 'down', timestamp: Math.floor(Date.now() / 1000) },
      up ? 200 : 503,
    ).setHeader('Cache-Control', 'no-cache')
  }
}

/** Whether `select 1` comes back within the time limit; the reason it did not is logged, never sent. */
async function databaseAnswers(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS)
  })
  try {
    await Promise.race([sql`select 1`.execute(db()), timeout])
    return true
  } catch (error) {
    console.error(`[health] the database is down: ${error instanceof Error ? error.message : String(error)}`)
    return false
  } finally {
    clearTimeout(timer)
  }
}
