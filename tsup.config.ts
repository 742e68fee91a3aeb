import { defineConfig } from 'tsup'

// One self-contained file, as create-vite ships: prompts and kolorist are bundled in.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  noExternal: [/.*/],
})
