/** Statements a connection can keep: not DDL, which a migration runs once. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i
/** Most statements a pool names: PostgreSQL keeps each on every connection that ran it. */
const MOST_NAMED = 200
/** Texts seen once that are remembered, to name them when they come again; forgotten all at once past this. */
const MOST_SEEN = 1_000

/**
 * The names of the statements the application repeats, one per query text (`fw_1`, `fw_2`, …). A text is named
 * the second time it runs, so that one-off queries (an `in (…)` of a new length, a report) are not kept on every
 * connection; past `MOST_NAMED` names, new texts run unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>()
  private seen = new Set<string>()

  /** The name to run this text under, or undefined to run it unnamed (parsed and planned each time). */
  of(text: string): string | undefined {
    const name = this.names.get(text)
    if (name !== undefined || this.names.size >= MOST_NAMED) return name
    if (!this.seen.has(text)) {
      if (this.seen.size >= MOST_SEEN) this.seen = new Set()
      if (PREPARABLE.test(text)) this.seen.add(text)
      return undefined
    }
    this.seen.delete(text)
    const named = `fw_${this.names.size + 1}`
    this.names.set(text, named)
    return named
  }
}
