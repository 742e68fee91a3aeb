import { afterEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'

class Clock {
  now(): number {
    return 1_700_000_000
  }
}

class Greeter {
  readonly clock: Clock
  constructor({ clock }: { clock: Clock }) {
    this.clock = clock
  }
}

class Report {
  readonly greeter: Greeter
  readonly title: string
  constructor({ greeter, title }: { greeter: Greeter; title: string }) {
    this.greeter = greeter
    this.title = title
  }
}

describe('Container', () => {
  afterEach(() => Container.setInstance())

  it('getInstance() returns one process-wide container', () => {
    const first = Container.getInstance()
    expect(Container.getInstance()).toBe(first)
    Container.setInstance()
    expect(Container.getInstance()).not.toBe(first)
  })

  it('singleton() builds once; bind() builds on every resolution', () => {
    const container = new Container().singleton('clock', Clock).bind('greeter', Greeter)
    expect(container.make('clock')).toBe(container.make('clock'))
    const a = container.make<Greeter>('greeter')
    const b = container.make<Greeter>('greeter')
    expect(a).not.toBe(b)
    expect(a.clock).toBe(b.clock)
  })

  it('factories receive the other services', () => {
    const container = new Container()
      .instance('title', 'Weekly')
      .singleton('clock', Clock)
      .singleton('label', ({ title, clock }) => `${String(title)} @ ${(clock as Clock).now()}`)
    expect(container.make('label')).toBe('Weekly @ 1700000000')
  })

  it('make(Class) builds an unregistered class with its dependencies injected', () => {
    const container = new Container().singleton('clock', Clock).singleton('greeter', Greeter).instance('title', 'Daily')
    const report = container.make(Report)
    expect(report).toBeInstanceOf(Report)
    expect(report.title).toBe('Daily')
    expect(report.greeter.clock).toBe(container.make('clock'))
  })

  it('a scope sees its parent, keeps its own registrations, and holds scoped services per scope', () => {
    const root = new Container().singleton('clock', Clock).scoped('greeter', Greeter)
    const first = root.createScope().instance('request', 'first request')
    const second = root.createScope().instance('request', 'second request')
    expect(first.make('request')).toBe('first request')
    expect(second.make('request')).toBe('second request')
    expect(root.has('request')).toBe(false)
    expect(first.make('greeter')).toBe(first.make('greeter'))
    expect(first.make('greeter')).not.toBe(second.make('greeter'))
    expect(first.make('clock')).toBe(second.make('clock'))
  })

  it('resolving an unknown service names it', () => {
    expect(() => new Container().make('mailer')).toThrow(/mailer/)
    expect(() => new Container().make(Greeter)).toThrow(/clock/)
  })
})
