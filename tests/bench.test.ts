import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// The benchmark's smoke mode: every server started for real on 127.0.0.1, put under a second of load per
// case by wrk (or autocannon), every answer compared. No test here asserts a speed.

const root = join(import.meta.dirname, '..')
const work = mkdtempSync(join(tmpdir(), 'fw-bench-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bench', 'run.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

interface CaseResult {
  requests: number
  rps: number
  p99Ms: number
  errors: number
  non2xx: number
  mismatches: number
}

interface ServerResult {
  label: string
  cases: Record<string, CaseResult>
  coldStartMs: Record<string, number>
  rssBytes: Record<string, number>
}

describe('npm run bench -- --smoke', () => {
  it('starts Fw and every peer, and each answers every case correctly under load with no errors', async () => {
    const out = join(work, 'smoke.json')
    const run = await bench(['--smoke', '--routes', '10,1000', '--out', out])
    expect(run.stderr.split('\n').filter((line) => line.startsWith('bench:'))).toEqual([])
    expect(run.code).toBe(0)

    const result = JSON.parse(readFileSync(out, 'utf8')) as {
      mode: string
      baseline: string
      failures: string[]
      servers: Record<string, ServerResult>
    }
    expect(result.mode).toBe('smoke')
    expect(result.failures).toEqual([])
    expect(Object.keys(result.servers).sort()).toEqual(['express', 'fastify', 'fw', 'hono', 'node-http', 'polka-0.5', 'polka-next'])
    for (const [id, server] of Object.entries(result.servers)) {
      expect(Object.keys(server.cases).sort(), id).toEqual(['echo', 'hello', 'user', 'user@10', 'user@1000'])
      for (const [key, measured] of Object.entries(server.cases)) {
        expect(measured.requests, `${id} ${key}`).toBeGreaterThan(0)
        expect({ errors: measured.errors, non2xx: measured.non2xx, mismatches: measured.mismatches }, `${id} ${key}`).toEqual({
          errors: 0,
          non2xx: 0,
          mismatches: 0,
        })
      }
      expect(server.coldStartMs['0'], id).toBeGreaterThan(0)
      expect(server.rssBytes['0'], id).toBeGreaterThan(0)
      expect(run.stdout).toContain(`| ${server.label} |`)
    }
    expect(result.servers.fw!.cases.hello!.rps / result.servers['polka-next']!.cases.hello!.rps).toBeCloseTo(
      (result.servers.fw!.cases.hello as CaseResult & { rpsRatio: number }).rpsRatio,
    )
  })

  it('fails with one line naming the server when answers go wrong only under load', async () => {
    const run = await bench(['--smoke', '--servers', 'polka-next', '--cases', 'user', '--add', 'flaky=bench/fixtures/flaky-server.mjs'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^bench: round 1, flaky: GET \/users\/:id: 0 errors, 0 non-2xx, \d+ wrong answers under load/m)
    expect(run.stderr).not.toMatch(/^bench: .*polka-next/m)
  })
})
