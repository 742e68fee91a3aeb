/**
 * Lets `import()` load the application's TypeScript (migrations, routes). Only the commands that
 * import application code call it: tsx takes a tenth of a second to start.
 */
export async function loadTypeScript(): Promise<void> {
  const { register } = await import('tsx/esm/api')
  register()
}
