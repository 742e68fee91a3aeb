import { HttpError, Response, type Request } from 'fw-runtime'
import { z } from 'zod'

const items = ['apple', 'banana', 'cherry']

/** The query GET /api/data reads, for its route's contract: another format is a 400. */
export const dataQuery = z.object({ format: z.enum(['json', 'text', 'html']).optional() })

/** What GET /api/data answers as JSON, for its route's contract. */
export const dataOut = z.object({ data: z.array(z.string()) })

export class DataController {
  /** GET /api/data?format=json|text|html */
  show(request: Request): Response {
    switch (request.get('format', 'json')) {
      case 'json':
        return Response.json({ data: items })
      case 'text':
        return Response.text(items.join('\n'))
      case 'html':
        return Response.html(`<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`)
      default:
        throw new HttpError(400, 'Invalid format')
    }
  }
}
