import { Response, type Request } from 'fw-runtime'
import runtime from 'fw-runtime/package.json' with { type: 'json' }
import { z } from 'zod'

/** What GET / answers, for its route's contract (routes/web.ts). */
export const welcome = z.object({ name: z.string(), status: z.string(), message: z.string() })

/** What GET /hello and GET /greet/{name} answer. */
export const greeting = z.object({ message: z.string() })

export class HomeController {
  /** GET / */
  index(): Response {
    return Response.json({
      name: `Fw ${runtime.version}`,
      status: 'running',
      message: 'Welcome to Fw! Edit routes/web.ts to add your own routes.',
    })
  }

  /** GET /hello */
  hello(): Response {
    return Response.json({ message: 'Hello, World!' })
  }

  /** GET /greet/{name} */
  greet(_request: Request, name: string): Response {
    return Response.json({ message: `Hello, ${name}!` })
  }
}
