import { describe, expect, it } from 'vitest'
import { commandLine } from '../../src/schedule/commandLine.js'

describe('commandLine', () => {
  it.each([
    ['digest:send', ['digest:send']],
    ['  digest:send   42 --queue ', ['digest:send', '42', '--queue']],
    [`mail:send "Hello world" --to=ada@example.com`, ['mail:send', 'Hello world', '--to=ada@example.com']],
    [`note 'it''s' ""`, ['note', 'its', '']],
    [`say "a \\"quoted\\" word" back\\ slash`, ['say', 'a "quoted" word', 'back slash']],
    [`--title="A B"`, ['--title=A B']],
    ['', []],
  ])('splits %j as a shell does', (line, words) => {
    expect(commandLine(line)).toEqual(words)
  })

  it('refuses a quote left open', () => {
    expect(() => commandLine('say "hello')).toThrow('The command line "say \\"hello" leaves a " open')
  })
})
