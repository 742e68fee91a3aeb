import { DB_CASES, EDGE_CASES } from './db-cases.mjs'
import { checkAnswer, fetchOnce, startServer } from './server-process.mjs'

/**
 * TechEmpower's verifier, once per server before any load: every test type answered right (status,
 * Content-Type, body by db-cases.mjs), the `queries` edge cases (missing, not a number, 0, 501), and
 * /updates writing what it answers: after `GET /updates?queries=20` the database holds the numbers it sent
 * (`readWorld(ids)` reads them back). On PostgreSQL (`countQueries` given), the statements one answer of a
 * test with `maxQueries` costs are counted. Resolves to `{ problems, queries }`: one failure message per wrong
 * answer, and the statements counted, by test.
 */
export async function verifyServer(server, { caseNames, wrap, readWorld, countQueries }) {
  const problems = []
  const queries = {}
  let handle
  try {
    handle = await startServer(server, { routes: 0, wrap })
  } catch (error) {
    return { problems: [`verify, ${server.id}: failed to start: ${error.message}`], queries }
  }
  try {
    const edges = EDGE_CASES.filter((edge) => caseNames.some((name) => name.startsWith(edge.test)))
    const checks = [...caseNames.map((name) => DB_CASES[name]), ...edges]
    for (const testCase of checks) {
      const wrong = checkAnswer(await fetchOnce(handle.port, testCase, 30_000), testCase)
      if (wrong) problems.push(`verify, ${server.id}: GET ${testCase.path} answered wrongly: ${wrong}`)
    }
    if (caseNames.includes('updates20')) {
      const answer = await fetchOnce(handle.port, DB_CASES.updates20, 30_000)
      if (!checkAnswer(answer, DB_CASES.updates20)) {
        const sent = JSON.parse(answer.body)
        // An id drawn twice in one request is written twice, in no set order: only the others are compared.
        const once = sent.filter((row) => sent.filter((other) => other.id === row.id).length === 1)
        const stored = await readWorld(once.map((row) => row.id))
        const lost = once.filter((row) => stored.get(row.id) !== row.randomNumber)
        if (lost.length) problems.push(`verify, ${server.id}: GET /updates?queries=20 did not save ${lost.length} of the ${once.length} numbers it answered (id ${lost[0].id}: sent ${lost[0].randomNumber}, stored ${stored.get(lost[0].id)})`)
      }
    }
    for (const name of caseNames.filter((n) => DB_CASES[n].maxQueries && countQueries)) {
      const testCase = DB_CASES[name]
      queries[name] = await countQueries(() => fetchOnce(handle.port, testCase, 30_000))
      if (queries[name] > testCase.maxQueries) {
        problems.push(`verify, ${server.id}: GET ${testCase.path} ran ${queries[name]} statements on PostgreSQL, more than ${testCase.maxQueries}`)
      }
    }
  } finally {
    await handle.stop()
  }
  return { problems, queries }
}
