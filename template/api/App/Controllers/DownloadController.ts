import { Response } from 'fw-runtime'

export class DownloadController {
  /** GET /download: a text file the browser saves instead of showing. */
  show(): Response {
    return Response.text('This is a sample file served by Fw.\n').setHeader(
      'Content-Disposition',
      'attachment; filename="sample.txt"',
    )
  }
}
