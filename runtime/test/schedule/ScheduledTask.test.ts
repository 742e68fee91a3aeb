import { afterEach, describe, expect, it } from 'vitest'
import { Job } from '../../src/queue/Job.js'
import { schedule } from '../../src/schedule/schedule.js'

class PruneTokens extends Job {
  handle(): void {}
}

const iso = (dates: Date[]) => dates.map((date) => date.toISOString())

afterEach(() => schedule.clear())

describe('a scheduled task', () => {
  it('turns each frequency into its cron expression, every minute until one is given', () => {
    const cases: [(task: ReturnType<typeof schedule.job>) => unknown, string][] = [
      [() => undefined, '* * * * *'],
      [(task) => task.everySecond(), '* * * * * *'],
      [(task) => task.everyMinute(), '* * * * *'],
      [(task) => task.everyFiveMinutes(), '*/5 * * * *'],
      [(task) => task.everyFifteenMinutes(), '*/15 * * * *'],
      [(task) => task.hourly(), '0 * * * *'],
      [(task) => task.hourlyAt(17), '17 * * * *'],
      [(task) => task.daily(), '0 0 * * *'],
      [(task) => task.dailyAt('13:05'), '5 13 * * *'],
      [(task) => task.dailyAt('7:00'), '0 7 * * *'],
      [(task) => task.weekly(), '0 0 * * 0'],
      [(task) => task.monthly(), '0 0 1 * *'],
      [(task) => task.cron('*/10 8-18 * * 1-5'), '*/10 8-18 * * 1-5'],
    ]
    for (const [frequency, expression] of cases) {
      const task = schedule.job(PruneTokens)
      frequency(task)
      expect(task.expression).toBe(expression)
      schedule.clear()
    }
  })

  it('is keyed by its job class or its name, in UTC until told otherwise, overlapping until told otherwise', () => {
    const job = schedule.job(PruneTokens).hourly()
    const call = schedule.call('cache:warm', () => undefined).timezone('Europe/Paris').withoutOverlapping()
    expect([job.key, job.timezoneName, job.overlaps]).toEqual(['job:PruneTokens', 'UTC', true])
    expect([call.key, call.timezoneName, call.overlaps]).toEqual(['cache:warm', 'Europe/Paris', false])
    expect(schedule.job(PruneTokens).name('prune-twice').key).toBe('prune-twice')
    expect(schedule.tasks().map((task) => task.key)).toEqual(['job:PruneTokens', 'cache:warm', 'prune-twice'])
  })

  it('refuses a bad cron expression, time zone or time of day, naming the task', () => {
    const task = schedule.job(PruneTokens)
    expect(() => task.cron('61 * * * *')).toThrow('Scheduled task job:PruneTokens: bad cron expression "61 * * * *": CronPattern: Invalid value for minute: 61')
    expect(() => task.cron('* * * *')).toThrow(/^Scheduled task job:PruneTokens: bad cron expression "\* \* \* \*"/)
    expect(() => task.cron('0 0 30 2 *')).toThrow('Scheduled task job:PruneTokens: the cron expression "0 0 30 2 *" never comes true')
    expect(() => task.timezone('Europe/Nowhere')).toThrow('Scheduled task job:PruneTokens: "Europe/Nowhere" is not an IANA time zone (such as UTC or Europe/Paris)')
    expect(() => task.dailyAt('25:00')).toThrow("Scheduled task job:PruneTokens: dailyAt() takes a time of day such as '13:00', got \"25:00\"")
    expect(() => task.hourlyAt(60)).toThrow('Scheduled task job:PruneTokens: hourlyAt() takes a minute from 0 to 59, got 60')
    expect(() => schedule.job(undefined as never)).toThrow('schedule.job() takes a job class, got undefined')
    expect(() => schedule.call('two words', () => undefined)).toThrow('A scheduled task\'s name must be 1 to 200 characters without spaces, got "two words"')
    // What was refused changed nothing.
    expect([task.expression, task.timezoneName]).toEqual(['* * * * *', 'UTC'])
  })

  it('refuses two tasks of one key, naming both', () => {
    schedule.job(PruneTokens).hourly()
    schedule.job(PruneTokens).cron('*/5 * * * *')
    expect(() => schedule.tasks()).toThrow("Two scheduled tasks have the key job:PruneTokens (one '0 * * * *', one '*/5 * * * *'): give one of them its own .name('…')")
  })

  it('keeps a daily time on the clock of its zone across the change to summer time, and an hourly one in the hour that is skipped', () => {
    // Europe/Paris moves from UTC+1 to UTC+2 at 02:00 on 2026-03-29: 02:30 that night does not exist.
    const daily = schedule.call('daily', () => undefined).dailyAt('09:00').timezone('Europe/Paris')
    expect(iso(daily.nextRuns(3, new Date('2026-03-27T12:00:00Z')))).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z'])
    const hourly = schedule.call('hourly', () => undefined).hourly().timezone('Europe/Paris')
    expect(iso(hourly.nextRuns(3, new Date('2026-03-29T00:30:00Z')))).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z', '2026-03-29T03:00:00.000Z'])
    // And back to UTC+1 at 03:00 on 2026-10-25: 09:00 is an hour later in UTC.
    expect(iso(daily.nextRuns(2, new Date('2026-10-24T12:00:00Z')))).toEqual(['2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z'])
    // In UTC nothing moves.
    const utc = schedule.call('utc', () => undefined).dailyAt('09:00')
    expect(iso(utc.nextRuns(2, new Date('2026-03-28T12:00:00Z')))).toEqual(['2026-03-29T09:00:00.000Z', '2026-03-30T09:00:00.000Z'])
  })

  it('lists its slots after a time (excluded) up to another (included), whole seconds', () => {
    const task = schedule.call('tick', () => undefined).everySecond()
    const start = Date.parse('2026-01-01T00:00:00Z')
    expect(task.slotsBetween(start, start + 3_000)).toEqual([start + 1_000, start + 2_000, start + 3_000])
    expect(task.slotsBetween(start + 500, start + 1_999)).toEqual([start + 1_000])
    expect(schedule.call('hourly', () => undefined).hourly().slotsBetween(start, start + 59 * 60_000)).toEqual([])
  })
})
