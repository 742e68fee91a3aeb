import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { wrongBody } from './db-cases.mjs'
import { BENCH_DIR } from './setup.mjs'

const START_TIMEOUT_MS = 60_000

/** The handles of the servers started and not yet exited, for `stopAll`. */
const live = new Set()

/** Stops every server this process started that still runs (an interrupted run must not leave them behind). */
export async function stopAll() {
  await Promise.all([...live].map((handle) => handle.stop()))
}

/** A port nobody listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** One request on a fresh connection: `{ status, body, contentType }`, or `{ error }` when it fails. */
export function fetchOnce(port, { method, path, requestBody }, timeoutMs = 10_000) {
  return new Promise((resolve) => {
    const headers = requestBody ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(requestBody) } : {}
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), contentType: res.headers['content-type'] ?? '' }),
      )
      res.on('error', (error) => resolve({ error: error.message }))
    })
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)))
    req.on('error', (error) => resolve({ error: error.code ?? error.message }))
    req.end(requestBody)
  })
}

/** Why an answer is wrong for a case, or null when it is right. */
export function checkAnswer(answer, testCase) {
  if (answer.error) return `request failed: ${answer.error}`
  if (answer.status !== testCase.status) return `status ${answer.status}, expected ${testCase.status}`
  if (testCase.expect) {
    // A TechEmpower test type: its own Content-Type, and a body checked by its rules (db-cases.mjs).
    if (!answer.contentType.toLowerCase().replace(/\s/g, '').startsWith(testCase.contentType.replace(/\s/g, ''))) {
      return `Content-Type "${answer.contentType}", expected ${testCase.contentType}`
    }
    return wrongBody(answer.body, testCase.expect)
  }
  if (!answer.contentType.startsWith('application/json')) return `Content-Type "${answer.contentType}", expected application/json`
  if (answer.body !== testCase.body) return `body ${answer.body.slice(0, 200)}, expected ${testCase.body}`
  return null
}

/**
 * What went wrong during a load on a case, one message each: a wrong answer after it, no answer at all,
 * errors, non-2xx or wrong answers under it. Empty when nothing did. (A server that exited is the caller's.)
 */
export async function problemsUnderLoad(handle, testCase, result, where) {
  const problems = []
  const wrong = checkAnswer(await fetchOnce(handle.port, testCase), testCase)
  if (wrong) problems.push(`${where}: ${testCase.label} answered wrongly after the load: ${wrong}`)
  if (result.requests === 0) problems.push(`${where}: ${testCase.label}: no answer at all under load`)
  if (result.errors + result.non2xx + result.mismatches > 0) {
    const detail = result.firstMismatch ? ` (first: ${result.firstMismatch})` : ''
    problems.push(`${where}: ${testCase.label}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.mismatches} wrong answers under load${detail}`)
  }
  return problems
}

/**
 * Spawns a server (pinned by `wrap`), and times spawn → first 200 on `GET /hello` (or the server's
 * `readyPath`): the cold start.
 * Resolves to a handle with `rssBytes()` and `stop()`; rejects with the server's own error output when it
 * exits or stays silent.
 */
export async function startServer(server, { routes, wrap }) {
  const ready = { method: 'GET', path: server.readyPath ?? '/hello' }
  const port = await freePort()
  const env = { ...process.env, ...server.env, PORT: String(port), HOST: '127.0.0.1', BENCH_ROUTES: String(routes), NODE_ENV: 'production', APP_DEBUG: 'false' }
  const [command, args] = wrap(process.execPath, [resolve(BENCH_DIR, server.file)], 'server')
  const started = performance.now()
  const child = spawn(command, args, { cwd: BENCH_DIR, env, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000)
  })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  let exit = null
  void exited.then((value) => {
    exit = value
    live.delete(handle)
  })

  const handle = {
    port,
    coldStartMs: 0,
    pid: child.pid,
    get exited() {
      return exit
    },
    get stderr() {
      return stderr
    },
    /** Resident memory of the server process now (taskset execs node, so the pid is node's). */
    rssBytes() {
      try {
        const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]
        return kb ? Number(kb) * 1024 : null
      } catch {
        return null
      }
    },
    /** CPU seconds (user + system) the server process has used so far; null where /proc is missing. */
    cpuSeconds() {
      try {
        // Fields after the command name: state is field 3, utime 14 and stime 15, in clock ticks (100 a second).
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
        return (Number(fields[11]) + Number(fields[12])) / 100
      } catch {
        return null
      }
    },
    /** Resolves to true once the server has used no CPU for 100 ms, or to false after `timeoutMs`. */
    async idle(timeoutMs) {
      const until = performance.now() + timeoutMs
      let before = handle.cpuSeconds()
      while (before !== null) {
        await sleep(100)
        const now = handle.cpuSeconds()
        // /proc counts CPU time in 10 ms ticks: one tick in 100 ms is a server at rest (timers, GC).
        if (now === null || now - before <= 0.01) return true
        if (performance.now() >= until) return false
        before = now
      }
      return true
    },
    async stop() {
      if (exit) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    },
  }
  live.add(handle)

  while (performance.now() - started < START_TIMEOUT_MS) {
    if (exit) break
    const answer = await fetchOnce(port, ready)
    if (answer.status === 200) {
      handle.coldStartMs = performance.now() - started
      return handle
    }
    await sleep(answer.error ? 2 : 20)
  }
  await handle.stop()
  const reason = exit && exit.code !== null ? `exited with code ${exit.code}` : `gave no 200 on GET ${ready.path} within ${START_TIMEOUT_MS / 1000} s`
  const output = stderr.trim().split('\n').slice(-3).join(' | ')
  throw new Error(`${server.id} ${reason}${output ? `: ${output}` : ''}`)
}
