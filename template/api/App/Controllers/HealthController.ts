import { Response } from 'fw-runtime'

export class HealthController {
  /** GET /health: for load balancers and uptime checks, so never cached. */
  show(): Response {
    return Response.json({ status: 'healthy', timestamp: Math.floor(Date.now() / 1000) }).setHeader(
      'Cache-Control',
      'no-cache',
    )
  }
}
