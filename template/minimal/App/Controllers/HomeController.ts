import { Response } from 'fw-runtime'
import runtime from 'fw-runtime/package.json' with { type: 'json' }
import { z } from 'zod'

/** What GET / answers, for its route's contract (routes/web.ts). */
export const welcome = z.object({ name: z.string(), status: z.string(), message: z.string() })

export class HomeController {
  /** GET / */
  index(): Response {
    return Response.json({
      name: `Fw ${runtime.version}`,
      status: 'running',
      message: 'Welcome to Fw! Edit routes/web.ts to add your own routes.',
    })
  }
}
