import { describe, expect, expectTypeOf, it } from 'vitest'
import { BaseCommand, Command, giveInput, isCommandClass } from '../../src/console/Command.js'
import { Container } from '../../src/container/Container.js'

class SendDigest extends Command({
  name: 'digest:send',
  description: 'Send the digest',
  arguments: {
    user: { type: 'number' },
    subject: { optional: true },
    greeting: { default: 'Hello' },
    topics: { variadic: true },
  },
  options: {
    queue: { type: 'boolean' },
    limit: { type: 'number', default: 10 },
    from: { type: 'string' },
    tag: { type: 'string', multiple: true },
  },
}) {
  constructor(readonly services: { greeter: string }) {
    super()
  }

  handle(): number {
    return this.arguments.user
  }
}

describe('Command({ … })', () => {
  it('types the arguments and options handle() reads from the definition', () => {
    expectTypeOf<SendDigest['arguments']>().toEqualTypeOf<{ readonly user: number; readonly subject: string | undefined; readonly greeting: string; readonly topics: string[] }>()
    expectTypeOf<SendDigest['options']>().toEqualTypeOf<{ readonly queue: boolean; readonly limit: number; readonly from: string | undefined; readonly tag: string[] }>()
    expectTypeOf(SendDigest.definition.name).toEqualTypeOf<'digest:send'>()
  })

  it('is a class fw recognizes, built by the container with its services, its input given before handle()', () => {
    expect(isCommandClass(SendDigest)).toBe(true)
    expect(isCommandClass(Command({ name: 'abstract', description: 'No handle' }))).toBe(false)
    expect(isCommandClass(class Other {})).toBe(false)

    const container = new Container()
    container.instance('greeter', 'hi')
    const command = container.make(SendDigest)
    expect(command).toBeInstanceOf(BaseCommand)
    expect(command.services.greeter).toBe('hi')
    expect(() => command.arguments).toThrow('SendDigest: its arguments and options are given by fw when it runs, not in its constructor')
    giveInput(command, { arguments: { user: 42 }, options: {} } as never)
    expect(command.handle()).toBe(42)
  })

  it.each([
    [{ name: 'Digest', description: 'x' }, 'Command "Digest": the name must be lowercase words joined by ":" or "-", such as digest:send'],
    [{ name: 'digest:send', description: ' ' }, 'Command "digest:send": it needs a description, one line for fw --help'],
    [{ name: 'a', description: 'x', arguments: { one: { optional: true }, two: {} } }, 'Command "a": the required argument <two> comes after the optional <one>'],
    [{ name: 'a', description: 'x', arguments: { many: { variadic: true }, last: { optional: true } } }, 'Command "a": the variadic argument <many> must be the last one'],
    [{ name: 'a', description: 'x', options: { help: { type: 'boolean' } } }, 'Command "a": --help is taken by fw for every command'],
    [{ name: 'a', description: 'x', options: { dryRun: { type: 'boolean' } } }, 'Command "a": the option name "dryRun" must be lowercase words joined by "-"'],
    [{ name: 'a', description: 'x', options: { one: { type: 'boolean', short: 'o' }, other: { type: 'boolean', short: 'o' } } }, 'Command "a": two options have the short form -o'],
    [{ name: 'a', description: 'x', options: { limit: { type: 'number', default: '10' } } }, 'Command "a": the default of --limit must be a number'],
  ])('refuses a definition that cannot be read unambiguously: %j', (definition, message) => {
    expect(() => Command(definition as never)).toThrow(message)
  })
})
