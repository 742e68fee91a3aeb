/**
 * The candidate nearest to the input, if any is near enough: by edit distance to the whole name or to
 * the part after the colon (`rollback` → `migrate:rollback`), a prefix counting as one edit.
 */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const action = candidate.slice(candidate.indexOf(':') + 1)
    const distance = candidate.startsWith(input) || action.startsWith(input) ? 1 : Math.min(editDistance(input, candidate), editDistance(input, action) + 1)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return bestDistance <= Math.max(2, Math.floor(input.length / 3)) ? best : undefined
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
