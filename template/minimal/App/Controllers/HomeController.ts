import { Response } from 'fw-runtime'
import runtime from 'fw-runtime/package.json' with { type: 'json' }

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
