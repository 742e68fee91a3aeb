/** What a line (or lines) typed into tinker becomes: JavaScript to run, more input to wait for, or an error to show. */
export type Translation = { readonly code: string } | { readonly incomplete: true } | { readonly error: SyntaxError }

/**
 * TypeScript typed into `fw tinker` as JavaScript the REPL runs: types stripped by esbuild (what tsx runs the app's
 * files with), `import … from '…'` turned into `await import('…')` (a REPL runs no static import), and an input
 * that stops short (`function f() {`) marked incomplete, so the REPL waits for the next line. `{ a: 1 }` is an
 * object, as Node's REPL reads it, not a block.
 *
 * @example
 * ```ts
 * await toJavaScript("const user: User = await User.findOrFail(1)") // { code: 'const user = await User.findOrFail(1);\n' }
 * await toJavaScript("import { User } from '#app/Models/User.js'")   // { code: 'var { User } = await import("#app/Models/User.js");\n' }
 * ```
 */
export async function toJavaScript(input: string): Promise<Translation> {
  const { transform } = await import('esbuild')
  const strip = (code: string) =>
    transform(code, { loader: 'ts', target: 'esnext', tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } } }).then((result) => result.code)
  if (/^\s*\{/.test(input) && /\}\s*$/.test(input)) {
    try {
      return { code: await strip(`(${input.trim()})`) }
    } catch {
      // Not an object: a block, read as it is below.
    }
  }
  try {
    return { code: dynamicImports(await strip(input)) }
  } catch (error) {
    const message = (error as { errors?: { text: string }[] }).errors?.[0]?.text ?? String(error)
    if (/end of file/.test(message) || (message.startsWith('Unterminated') && (input.match(/`/g) ?? []).length % 2 === 1)) return { incomplete: true }
    return { error: new SyntaxError(message) }
  }
}

/** esbuild's printed static imports as dynamic ones; `var`, so that running one again in the REPL is no error. */
function dynamicImports(code: string): string {
  return code.replace(/^import\s+(?:([\s\S]*?)\s+from\s+)?("(?:[^"\\]|\\.)*");?$/gm, (_, clause: string | undefined, specifier: string) => {
    if (clause === undefined) return `await import(${specifier});`
    const namespace = /^\*\s+as\s+(\w+)$/.exec(clause)
    if (namespace) return `var ${namespace[1]} = await import(${specifier});`
    const [, defaultName, named] = /^(?:(\w+)\s*,?\s*)?(?:\{([\s\S]*)\})?$/.exec(clause) ?? []
    const bindings = [
      ...(defaultName ? [`default: ${defaultName}`] : []),
      ...(named ?? '')
        .split(',')
        .map((binding) => binding.trim())
        .filter(Boolean)
        .map((binding) => binding.replace(/\s+as\s+/, ': ')),
    ]
    return `var { ${bindings.join(', ')} } = await import(${specifier});`
  })
}
