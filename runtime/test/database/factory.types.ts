// Type-level tests of model factories, checked by `npm run typecheck` (never run): each @ts-expect-error must fail.
import { factory } from '../../src/database/factory.js'
import type { RowOf } from '../../src/database/modelTypes.js'
import { Post } from './blog/Post.js'

const PostFactory = factory(() => Post, ({ faker }) => ({ title: faker.lorem.sentence() }), { states: { published: { status: 'published' } } })

export const one: Promise<RowOf<typeof Post>> = PostFactory.create()
export const many: Promise<RowOf<typeof Post>[]> = PostFactory.count(3).state('published').create()
export const values: Promise<Partial<{ title: string }>[]> = PostFactory.count(2).make()

// @ts-expect-error: the factory has no such state
PostFactory.state('archived')
// @ts-expect-error: posts has no such column
PostFactory.state({ headline: 'x' })
// @ts-expect-error: a column's value of the wrong type
PostFactory.create({ views: 'many' })
// @ts-expect-error: count(n) makes an array
export const notOne: Promise<RowOf<typeof Post>> = PostFactory.count(2).create()
// @ts-expect-error: the definition's values are the model's columns
factory(() => Post, () => ({ headline: 'x' }))
// An async definition is typed as a plain one.
export const async = factory(() => Post, async ({ faker }) => ({ title: await Promise.resolve(faker.lorem.sentence()) }))
// @ts-expect-error: an async definition's values are the model's columns too
factory(() => Post, async () => ({ headline: 'x' }))
