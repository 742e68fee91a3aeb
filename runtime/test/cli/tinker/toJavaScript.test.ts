import { describe, expect, it } from 'vitest'
import { toJavaScript } from '../../../src/cli/tinker/toJavaScript.js'

describe('toJavaScript', () => {
  it('strips the types, keeping top-level await', async () => {
    expect(await toJavaScript('const user: User = await User.findOrFail(1 as number)')).toEqual({ code: 'const user = await User.findOrFail(1);\n' })
  })

  it('reads { … } as an object, as Node’s REPL does, and a block when it cannot be one', async () => {
    expect(await toJavaScript('{ a: 1 }')).toEqual({ code: '({ a: 1 });\n' })
    expect(await toJavaScript('{ let a = 1; a++ }')).toEqual({ code: '{\n  let a = 1;\n  a++;\n}\n' })
  })

  it.each([
    [`import { User, Post as P } from '#app/Models/User.js'`, 'var { User, Post: P } = await import("#app/Models/User.js");\n'],
    [`import Default from 'node:path'`, 'var { default: Default } = await import("node:path");\n'],
    [`import Default, { join } from 'node:path'`, 'var { default: Default, join } = await import("node:path");\n'],
    [`import * as path from 'node:path'`, 'var path = await import("node:path");\n'],
    [`import 'node:path'`, 'await import("node:path");\n'],
    [`import type { User } from '#app/Models/User.js'`, ''],
  ])('turns %s into a dynamic import', async (input, code) => {
    expect(await toJavaScript(input)).toEqual({ code })
  })

  it.each(['function f(a: number,', 'const list = [1,', 'const text = `first line'])('marks %j incomplete, for the REPL to wait for more', async (input) => {
    expect(await toJavaScript(input)).toEqual({ incomplete: true })
  })

  it('gives a syntax error for what cannot be read', async () => {
    const translation = await toJavaScript('const x: = 1')
    expect('error' in translation && translation.error).toBeInstanceOf(SyntaxError)
  })
})
