import { afterEach, describe, expect, it } from 'vitest'
import { schedule } from '../../src/schedule/schedule.js'

afterEach(() => schedule.clear())

describe('schedule.command', () => {
  it('declares a task that runs the command line, keyed command:<name>, every minute until told otherwise', () => {
    const task = schedule.command(`mail:send "Hello world" --queue`)
    expect(task.key).toBe('command:mail:send')
    expect(task.expression).toBe('* * * * *')
    expect(task.action).toEqual({ kind: 'command', argv: ['mail:send', 'Hello world', '--queue'] })
    expect(schedule.command('digest:send').dailyAt('08:00').expression).toBe('0 8 * * *')
  })

  it('asks for .name() when one command is scheduled twice', () => {
    schedule.command('digest:send 1')
    schedule.command('digest:send 2')
    expect(() => schedule.tasks()).toThrow("Two scheduled tasks have the key command:digest:send (one '* * * * *', one '* * * * *'): give one of them its own .name('…')")
  })

  it.each([
    ['', 'schedule.command() takes a command line that starts with the command\'s name, got ""'],
    ['--queue digest:send', 'schedule.command() takes a command line that starts with the command\'s name, got "--queue digest:send"'],
    ['say "open', 'The command line "say \\"open" leaves a " open'],
  ])('refuses %j', (line, message) => {
    expect(() => schedule.command(line)).toThrow(message)
  })
})
