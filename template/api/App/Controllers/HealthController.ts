import { checkHealth, Response } from 'fw-runtime'
import { z } from 'zod'

/** What GET /health answers, up (200) or down (503), for its route's contract (routes/web.ts). */
export const health = z.object({
  status: z.enum(['healthy', 'unhealthy']),
  database: z.enum(['up', 'down']),
  cache: z.enum(['up', 'down']).optional().describe('Redis, when CACHE_STORE=redis'),
  storage: z.enum(['up', 'down']).optional().describe('The bucket, when FILESYSTEM_DISK=s3'),
  timestamp: z.number().int().describe('Unix seconds'),
})

export class HealthController {
  /**
   * GET /health: for load balancers and uptime checks, so never cached. 200 while the database answers (and the
   * cache and the bucket, when they are remote), 503 when one does not, so that a load balancer sends traffic
   * elsewhere. Why a service is down goes to the log, never into the answer.
   */
  async show(): Promise<Response> {
    const report = await checkHealth()
    return Response.json(report, report.status === 'healthy' ? 200 : 503).setHeader('Cache-Control', 'no-cache')
  }
}
