import type { Kysely } from 'kysely'
import {
  attemptLogin,
  auth,
  authCsrf,
  authHeaders,
  bearerToken,
  changePassword,
  currentUser,
  isApiCall,
  issueToken,
  redirectIfAuthenticated,
  registerUser,
  revokeToken,
  signIn,
  signOut,
  validateCredentials,
  validateRegistration,
} from '../../src/auth.js'
import { Container } from '../../src/container/Container.js'
import { id, timestamps } from '../../src/database/columns.js'
import { ValidationError } from '../../src/http/ValidationError.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'

/** The tables of make:auth's migrations (generators/make-auth/stubs/migrations), made afresh. */
export async function createAuthTables(db: Kysely<any>): Promise<void> {
  for (const table of ['password_reset_tokens', 'access_tokens', 'login_attempts', 'users']) await db.schema.dropTable(table).ifExists().execute()
  await db.schema
    .createTable('users')
    .$call(id(db))
    .addColumn('name', 'varchar(255)', (column) => column.notNull())
    .addColumn('email', 'varchar(255)', (column) => column.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (column) => column.notNull())
    .addColumn('is_admin', 'boolean', (column) => column.notNull().defaultTo(false))
    .$call(timestamps())
    .execute()
  await db.schema
    .createTable('access_tokens')
    .$call(id(db))
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (column) => column.notNull().unique())
    .addColumn('kind', 'varchar(16)', (column) => column.notNull())
    .addColumn('expires_at', 'timestamp', (column) => column.notNull())
    .addColumn('last_used_at', 'timestamp')
    .$call(timestamps())
    .execute()
  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('reset_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('user_id', 'integer', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (column) => column.notNull())
    .addColumn('created_at', 'timestamp', (column) => column.notNull())
    .execute()
}

const NO_MATCH = 'These credentials do not match our records.'

/**
 * The routes of a generated app, written with fw-runtime/auth directly: JSON for API calls, the session
 * cookie for browsers. Each handler is the shortest form of the generated controller's action.
 */
export function authRouter(): Router {
  const router = new Router(new Container())
  router.group({ middleware: [authHeaders, 'session', redirectIfAuthenticated('/me'), authCsrf] }, () => {
    router.get('/login', (request) => Response.html(`<input type="hidden" name="_token" value="${request.csrfToken()}">`))
    router.post('/register', async (request) => {
      // `?confirmed`: the password typed twice, as make:auth's form asks now; without it, as an older app's form does.
      const { data, errors } = validateRegistration(request, { confirmed: request.query('confirmed') !== null })
      if (errors) throw new ValidationError(errors)
      const user = await registerUser(request, data)
      if (!user) throw new ValidationError({ email: ['The email has already been taken.'] })
      if (isApiCall(request)) return Response.json({ user, token: (await issueToken(user.id, 'api')).token }, 201)
      await signIn(request, user)
      return Response.redirect('/me', 303)
    })
    router.post('/login', async (request) => {
      const { data, errors } = validateCredentials(request)
      if (errors) throw new ValidationError(errors)
      const user = await attemptLogin(request, data)
      if (!user) return Response.json({ error: NO_MATCH }, 422)
      if (isApiCall(request)) return Response.json({ user, token: (await issueToken(user.id, 'api')).token })
      await signIn(request, user, { remember: request.input('remember') === 'on' })
      return Response.redirect('/me', 303)
    })
  })
  router.group({ middleware: [authHeaders, auth, 'csrf'] }, () => {
    router.get('/me', (request) => Response.json({ user: currentUser(request), csrf: request.hasSession() ? request.csrfToken() : null }))
    router.post('/password', async (request) => {
      const user = currentUser(request)
      await changePassword(user.id, String(request.input('password')))
      if (request.hasSession() && bearerToken(request) === undefined) await signIn(request, user)
      return Response.json({ changed: true })
    })
    router.post('/logout', async (request) => {
      const token = bearerToken(request)
      if (token !== undefined) await revokeToken(token)
      else await signOut(request)
      return Response.json({ message: 'Logged out' })
    })
  })
  router.get('/open', (request) => Response.json({ user: request.user ?? null }))
  return router
}
