import type { StandardSchemaV1 } from '@standard-schema/spec'

type JsonSchema = Record<string, unknown>

/** The body of a 404 that Fw answers, `{"error": "Not Found"}`, as a Standard Schema that gives its JSON Schema. */
export interface NotFoundBody extends StandardSchemaV1<unknown, { error: string }> {
  readonly '~standard': StandardSchemaV1.Props<unknown, { error: string }> & {
    readonly jsonSchema: { input(options: { target: string }): JsonSchema; output(options: { target: string }): JsonSchema }
  }
}

const schema = (): JsonSchema => ({ type: 'object', properties: { error: { type: 'string' } }, required: ['error'] })

/**
 * The 404 that route model binding declares on its route (`.bind('post', Post)`), so that the OpenAPI document and
 * the typed client show it with its body.
 */
export const NOT_FOUND_BODY: NotFoundBody = {
  '~standard': {
    version: 1,
    vendor: 'fw',
    validate(value) {
      const error = (value as { error?: unknown } | null)?.error
      return typeof error === 'string' ? { value: { error } } : { issues: [{ message: 'Expected {"error": string}', path: ['error'] }] }
    },
    jsonSchema: { input: schema, output: schema },
  },
}
