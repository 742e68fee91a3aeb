/**
 * The words of a command line as a shell splits them: on spaces, with `'…'` and `"…"` keeping spaces inside one
 * word, and `\` escaping the next character. Throws on a quote left open.
 *
 * @example
 * ```ts
 * commandLine(`mail:send "Hello world" --to=ada@example.com`) // ['mail:send', 'Hello world', '--to=ada@example.com']
 * ```
 */
export function commandLine(line: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: '"' | "'" | undefined
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!
    if (quote) {
      if (char === quote) quote = undefined
      else if (char === '\\' && quote === '"' && i + 1 < line.length) word = (word ?? '') + line[++i]
      else word = (word ?? '') + char
    } else if (char === '"' || char === "'") {
      quote = char
      word ??= ''
    } else if (char === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i]
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else {
      word = (word ?? '') + char
    }
  }
  if (quote) throw new Error(`The command line ${JSON.stringify(line)} leaves a ${quote} open`)
  if (word !== undefined) words.push(word)
  return words
}
