// Type tests of jobs (checked by tsc, never run): a dispatch takes the payload its job's handle() takes.
import { Job, queue } from '../../src/queue.js'

class SendWelcomeEmail extends Job<{ userId: number }> {
  async handle({ userId }: { userId: number }): Promise<void> {
    void userId
  }
}

class PruneTokens extends Job {
  handle(): void {}
}

export async function dispatches(): Promise<void> {
  await SendWelcomeEmail.dispatch({ userId: 1 })
  await SendWelcomeEmail.dispatch({ userId: 1 }, { delay: 60, queue: 'mail', attempts: 5, backoff: 30, uniqueKey: 'welcome:1' })
  await PruneTokens.dispatch()
  await queue.dispatch(SendWelcomeEmail, { userId: 2 })
  // @ts-expect-error the payload's type is the job's
  await SendWelcomeEmail.dispatch({ userId: '1' })
  // @ts-expect-error a job with a payload needs it
  await SendWelcomeEmail.dispatch()
  // @ts-expect-error an option Fw does not have
  await PruneTokens.dispatch(undefined, { priority: 1 })

  const jobs = queue.fake()
  jobs.assertPushed(SendWelcomeEmail, (payload) => payload.userId === 1)
  // @ts-expect-error the predicate gets the job's payload
  jobs.assertPushed(SendWelcomeEmail, (payload) => payload.email === 'x')
}
