import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { jsonSchemaOf } from '../../src/openapi/jsonSchemaOf.js'
import { inDocument } from '../../src/openapi/schemaComponents.js'

interface Category {
  name: string
  children: Category[]
}
const Category: z.ZodType<Category> = z.object({ name: z.string(), get children() { return z.array(Category) } })
const LazyTree: z.ZodType<Category> = z.lazy(() => z.object({ name: z.string(), children: z.array(LazyTree) }))
const Post = z.object({ title: z.string(), published: z.boolean().default(false), meta: z.json(), tree: Category.optional() })

/** Every `$ref` of a value, and whether a `$defs` is anywhere in it. */
function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refsOf(item, found))
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$defs') throw new Error('a $defs was left in the document')
      if (key === '$ref') found.push(item as string)
      else refsOf(item, found)
    }
  }
  return found
}

describe('inDocument', () => {
  it('returns a schema that stands alone as it is, and adds nothing to the components', () => {
    const schemas = {}
    const json = jsonSchemaOf(z.object({ title: z.string() }), 'input')!
    expect(inDocument(json, 'Body', schemas)).toBe(json)
    expect(schemas).toEqual({})
  })

  it("lifts a getter tree's $defs into the components, keeps the body inline, rewrites every $ref, and makes z.json() {}", () => {
    const schemas: Record<string, any> = {}
    const body = inDocument(jsonSchemaOf(Post, 'input')!, 'posts_store_Body', schemas) as any
    expect(body.$defs).toBeUndefined()
    expect(body.required).toEqual(['title', 'meta'])
    // Any JSON value is all a JSON body can be: {} says it without the recursion openapi-fetch's types cannot take.
    expect(body.properties.meta).toEqual({})
    expect(body.properties.tree).toEqual({ $ref: '#/components/schemas/posts_store_Body_schema1' })
    expect(Object.keys(schemas)).toEqual(['posts_store_Body_schema1'])
    expect(schemas.posts_store_Body_schema1.properties.children.items).toEqual({ $ref: '#/components/schemas/posts_store_Body_schema1' })
    for (const ref of refsOf([body, schemas])) expect(Object.keys(schemas)).toContain(ref.replace('#/components/schemas/', ''))
    expect(inDocument(jsonSchemaOf(z.json(), 'input')!, 'Anything', schemas)).toEqual({})
  })

  it('puts a schema that refers to itself into the components whole, under the name given, for z.lazy as for a getter', () => {
    for (const tree of [Category, LazyTree]) {
      const schemas: Record<string, any> = {}
      expect(inDocument(jsonSchemaOf(tree, 'input')!, 'Tree', schemas)).toEqual({ $ref: '#/components/schemas/Tree' })
      refsOf(schemas)
      expect(JSON.stringify(schemas)).not.toMatch(/"\$ref":"#(\/\$defs.*)?"/)
      const root = schemas.Tree.$ref ? schemas[schemas.Tree.$ref.split('/').pop()] : schemas.Tree
      expect(root.properties.children.items.$ref).toMatch(/^#\/components\/schemas\//)
    }
  })

  it("keeps an id the application gave (.meta({ id })), and shares it between schemas that hold the same definition", () => {
    const Author = z.object({ name: z.string() }).meta({ id: 'Author' })
    const schemas: Record<string, any> = {}
    const one = inDocument(jsonSchemaOf(z.object({ author: Author, editor: Author }), 'output')!, 'A', schemas) as any
    const two = inDocument(jsonSchemaOf(z.object({ by: Author }), 'output')!, 'B', schemas) as any
    expect(one.properties.author).toEqual({ $ref: '#/components/schemas/Author' })
    expect(two.properties.by).toEqual({ $ref: '#/components/schemas/Author' })
    expect(Object.keys(schemas)).toEqual(['Author'])
  })
})
