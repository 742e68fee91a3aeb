// Type-level tests of request.validate(), checked by `npm run typecheck` (never run): each @ts-expect-error must fail.
import { expectTypeOf } from 'vitest'
import { z } from 'zod'
import type { Request } from '../../src/http/Request.js'
import { defineContract } from '../../src/routing/RouteContract.js'
import type { RouteClosure } from '../../src/routing/RouteDefinition.js'

const storeTask = defineContract({
  body: z.object({ title: z.string(), done: z.boolean().default(false) }),
  query: z.object({ page: z.coerce.number().int().optional() }),
  responses: { 201: { schema: z.object({ id: z.number() }) } },
})
const onlyQuery = defineContract({ query: z.object({ q: z.string() }) })
const listBody = defineContract({ body: z.array(z.object({ id: z.number() })) })

export async function typed(request: Request<typeof storeTask>): Promise<void> {
  // The body's output type: defaults filled in, so done is a boolean.
  expectTypeOf(await request.validate()).toEqualTypeOf<{ title: string; done: boolean }>()
  expectTypeOf(await request.validate('body')).toEqualTypeOf<{ title: string; done: boolean }>()
  expectTypeOf(await request.validate('query')).toEqualTypeOf<{ page?: number | undefined }>()
  // A schema given explicitly still types the call by itself.
  expectTypeOf(await request.validate(z.object({ n: z.number() }))).toEqualTypeOf<{ n: number }>()
  // @ts-expect-error: the declared body has no such field
  ;(await request.validate()).headline
}

export async function partial(request: Request<typeof onlyQuery>, list: Request<typeof listBody>): Promise<void> {
  expectTypeOf(await request.validate('query')).toEqualTypeOf<{ q: string }>()
  // No body declared: unknown, as on a Request without a contract.
  expectTypeOf(await request.validate()).toEqualTypeOf<unknown>()
  expectTypeOf(await list.validate()).toEqualTypeOf<{ id: number }[]>()
}

export async function untyped(request: Request): Promise<void> {
  // Without a type argument, exactly as before: unknown, or the type given.
  expectTypeOf(await request.validate()).toEqualTypeOf<unknown>()
  expectTypeOf(await request.validate('query')).toEqualTypeOf<unknown>()
  expectTypeOf(await request.validate<{ title: string }>()).toEqualTypeOf<{ title: string }>()
}

// A typed request is still a Request: a handler that takes one is a route's closure, and the two are interchangeable.
export const closure: RouteClosure = async (request: Request<typeof storeTask>) => ({ title: (await request.validate()).title })
export const widened: Request = null as unknown as Request<typeof storeTask>
