/** The requests every server answers, with the exact answer expected (all servers serialise with JSON.stringify). */
const user = '{"name":"Ada Lovelace","email":"ada@example.com","roles":["admin","author"],"active":true}'

export const CASES = {
  hello: {
    label: 'GET /hello',
    method: 'GET',
    path: '/hello',
    status: 200,
    body: '{"message":"Hello, World!"}',
  },
  user: {
    label: 'GET /users/:id',
    method: 'GET',
    path: '/users/42',
    status: 200,
    body: '{"user":{"id":42,"name":"User 42"}}',
  },
  echo: {
    label: 'POST /users (JSON echo)',
    method: 'POST',
    path: '/users',
    requestBody: user,
    status: 201,
    body: `{"message":"User created","user":${user}}`,
  },
}

/** Route counts for the scaling cases: `/users/:id` registered after this many other parametric routes. */
export const ROUTE_COUNTS = [10, 100, 1000, 10000]

/**
 * What one server process is started for: the three basic cases with no extra routes, then `/users/:id`
 * once per route count.
 */
export function groups(caseNames, routeCounts) {
  const basic = caseNames.filter((name) => name !== 'routes')
  const list = basic.length > 0 ? [{ routes: 0, cases: basic }] : []
  if (caseNames.includes('routes')) for (const routes of routeCounts) list.push({ routes, cases: ['user'] })
  return list
}

/** The key a measurement is stored under: `hello`, `user`, `echo`, or `user@10000` for a scaling case. */
export function measurementKey(caseName, routes) {
  return routes === 0 ? caseName : `${caseName}@${routes}`
}
