import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { jsonSchemaOf, notConvertible } from '../../src/openapi/jsonSchemaOf.js'

describe('jsonSchemaOf', () => {
  it('converts zod natively: a .default() field is optional in what a client sends and present in what it gets', () => {
    const schema = z.object({ title: z.string().min(1), published: z.boolean().default(false) })
    expect(jsonSchemaOf(schema, 'input')).toMatchObject({ type: 'object', required: ['title'], properties: { published: { type: 'boolean', default: false } } })
    expect(jsonSchemaOf(schema, 'output')).toMatchObject({ required: ['title', 'published'] })
    expect(jsonSchemaOf(schema, 'input')!.$schema).toBeUndefined()
  })

  it('converts valibot through @valibot/to-json-schema, input and output', () => {
    const schema = v.object({ email: v.pipe(v.string(), v.email()), name: v.pipe(v.string(), v.minLength(2)), published: v.optional(v.boolean(), false) })
    expect(jsonSchemaOf(schema, 'input')).toEqual({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, name: { type: 'string', minLength: 2 }, published: { type: 'boolean', default: false } },
      required: ['email', 'name'],
    })
    expect(jsonSchemaOf(v.array(v.number()), 'output')).toEqual({ type: 'array', items: { type: 'number' } })
  })

  it('converts arktype natively', () => {
    expect(jsonSchemaOf(type({ name: 'string', 'age?': 'number.integer' }), 'input')).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' } },
      required: ['name'],
    })
  })

  it('gives undefined, never throws, for a schema its converter refuses or that has none, and the note says why', () => {
    expect(jsonSchemaOf(z.object({ at: z.date() }), 'input')).toBeUndefined()
    expect(jsonSchemaOf(v.object({ at: v.date() }), 'input')).toBeUndefined()
    const bare = { '~standard': { version: 1, vendor: 'mine', validate: (value: unknown) => ({ value }) } } as const
    expect(jsonSchemaOf(bare, 'input')).toBeUndefined()
    expect(notConvertible(bare)).toEqual({
      description: 'This schema offers no JSON Schema (Standard JSON Schema): the document cannot describe it.',
      'x-fw-schema': 'not convertible',
    })
  })
})
