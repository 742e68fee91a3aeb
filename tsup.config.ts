import { defineConfig } from 'tsup'

// One self-contained file, as create-vite ships: prompts and kolorist are bundled in.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  clean: true,
  noExternal: [/.*/],
  // prompts is CommonJS and requires Node's own modules (readline, events): give the ESM bundle a `require`.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'\nconst require = __createRequire(import.meta.url)" },
})
