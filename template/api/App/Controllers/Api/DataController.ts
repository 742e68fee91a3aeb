import { HttpError, Response, type Request } from 'fw-runtime'

const items = ['apple', 'banana', 'cherry']

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
