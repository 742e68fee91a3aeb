/**
 * Calls `send` `count` times, one after the other, as fast as it resolves, or spread at `rate` a second (then each
 * call is told it is paced: its start is timed). Resolves to the count.
 */
export async function pace(count, rate, send) {
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    if (rate) {
      const due = started + (i * 1000) / rate
      const wait = due - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    }
    await send(Boolean(rate))
  }
  return count
}
