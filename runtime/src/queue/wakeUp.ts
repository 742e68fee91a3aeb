/**
 * The idle workers of a process, waiting for a job: `wait` sleeps up to its time, `wake` ends every wait at once
 * (a job was dispatched in this process, PostgreSQL said one was, or another process committed one to SQLite).
 */
export class WakeUp {
  readonly #waiting = new Set<() => void>()

  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        this.#waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal.addEventListener('abort', done, { once: true })
      this.#waiting.add(done)
    })
  }

  wake(): void {
    for (const done of [...this.#waiting]) done()
  }
}
