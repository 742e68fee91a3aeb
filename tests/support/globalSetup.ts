import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { checkoutRoot } from './process.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder for this test run, removed at its end: installedApp() keeps its one install there. */
    fwE2eRunDir: string
  }
}

/** Global setup of the e2e project: one temporary folder per run, shared by every test file. */
export default function setup(project: TestProject): () => void {
  for (const built of ['dist/index.js', 'runtime/dist/index.js']) {
    if (!existsSync(join(checkoutRoot, built))) {
      throw new Error(`${built} is missing: run "npm install" (or "npm run build") at the root first`)
    }
  }
  const runDir = mkdtempSync(join(tmpdir(), 'fw-e2e-'))
  project.provide('fwE2eRunDir', runDir)
  return () => {
    if (!process.env.FW_E2E_KEEP) rmSync(runDir, { recursive: true, force: true })
  }
}
