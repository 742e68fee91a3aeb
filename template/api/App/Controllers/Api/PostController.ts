import { Response, type Request } from 'fw-runtime'
import { z } from 'zod'

const TOTAL = 50
const PER_PAGE = 10

/** The query GET /api/posts reads, for its route's contract: a page that is not a number is page 1. */
export const postsQuery = z.object({ page: z.string().optional() })

/** What GET /api/posts answers, for its route's contract. */
export const postsPage = z.object({
  data: z.array(z.object({ id: z.number().int(), title: z.string() })),
  meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
})

export class PostController {
  /** GET /api/posts?page=2: one page of posts, the pagination meta, and X-Total-Count. */
  index(request: Request): Response {
    const page = Math.max(1, Number.parseInt(request.get('page', '1') ?? '1', 10) || 1)
    const first = (page - 1) * PER_PAGE + 1
    const last = Math.min(page * PER_PAGE, TOTAL)
    const data = []
    for (let id = first; id <= last; id++) data.push({ id, title: `Post ${id}` })

    const meta = {
      current_page: page,
      per_page: PER_PAGE,
      total: TOTAL,
      last_page: Math.ceil(TOTAL / PER_PAGE),
    }
    return Response.json({ data, meta }).setHeader('X-Total-Count', String(TOTAL))
  }
}
