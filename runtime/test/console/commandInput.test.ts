import { describe, expect, it } from 'vitest'
import { commandInput, parseArgsOptions } from '../../src/console/commandInput.js'
import type { CommandDefinition } from '../../src/console/CommandDefinition.js'
import { commandDetails, commandUsage } from '../../src/console/commandUsage.js'

const definition = {
  name: 'digest:send',
  description: 'Send the digest',
  arguments: { user: { type: 'number', description: 'The id of the user' }, greeting: { default: 'Hello' } },
  options: { queue: { type: 'boolean', short: 'q' }, limit: { type: 'number', default: 10 }, tag: { type: 'string', multiple: true } },
} as const satisfies CommandDefinition

describe('commandInput', () => {
  it('names the positionals, reads numbers, fills in defaults, and makes absent flags false', () => {
    expect(commandInput(definition, {}, ['42'])).toEqual({ arguments: { user: 42, greeting: 'Hello' }, options: { queue: false, limit: 10, tag: [] } })
    expect(commandInput(definition, { queue: true, limit: '3', tag: ['a', 'b'] }, ['-1.5', 'Hi'])).toEqual({
      arguments: { user: -1.5, greeting: 'Hi' },
      options: { queue: true, limit: 3, tag: ['a', 'b'] },
    })
  })

  it.each([
    [[], {}, 'missing the argument <user> (The id of the user)'],
    [['x'], {}, '<user> must be a number, got "x"'],
    [[''], {}, '<user> must be a number, got ""'],
    [['1', 'Hi', 'extra'], {}, 'unexpected argument "extra": it takes at most 2'],
    [['1'], { limit: '1e999' }, '--limit must be a number, got "1e999"'],
  ])('refuses %j %j with one line', (positionals, values, message) => {
    expect(() => commandInput(definition, values, positionals)).toThrow(message)
  })

  it('gives parseArgs a number as a string, with its short form and repetition', () => {
    expect(parseArgsOptions(definition)).toEqual({ queue: { type: 'boolean', short: 'q' }, limit: { type: 'string' }, tag: { type: 'string', multiple: true } })
  })
})

describe('commandUsage and commandDetails', () => {
  it('print the command line and a line per argument and option', () => {
    expect(commandUsage(definition)).toBe('digest:send <user> [<greeting>] [--queue] [--limit=<number>] [--tag=<string>]')
    expect(commandDetails(definition)).toEqual([
      'Arguments:',
      '  <user>            The id of the user (a number)',
      '  <greeting>        (default "Hello")',
      '',
      'Options:',
      '  -q, --queue',
      '  --limit=<number>  (a number, default 10)',
      '  --tag=<string>    (may be repeated)',
    ])
  })
})
