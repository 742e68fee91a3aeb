import type { Kysely } from 'kysely'
import { CommandError, type Command } from './Command.js'

/** What `setAdmin` did: `unverified` when it granted, with --force, to a user whose email is not verified. */
interface Outcome {
  unverified: boolean
}

/**
 * Sets or clears `users.is_admin` for the registered user with that email (compared trimmed and in
 * lower case, as make:auth stores it). Fails in one line when the table, the column or the user is
 * missing, saying what to run. With email verification (make:auth's `users.email_verified_at`), it grants only to a
 * user who has verified the address, unless `force`: anyone may register an address first, and an unproven one is no
 * sign of whose account it is.
 */
async function setAdmin(command: string, cwd: string, email: string, admin: boolean, force = false): Promise<Outcome> {
  const [{ loadEnv }, { createDatabase }, { sql }] = await Promise.all([
    import('../config/loadEnv.js'),
    import('../database/createDatabase.js'),
    import('kysely'),
  ])
  loadEnv(`${cwd}/.env`)
  let db: Kysely<any>
  try {
    db = createDatabase<any>(process.env.DATABASE_URL, cwd)
  } catch (error) {
    throw new CommandError(`fw ${command} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  try {
    const users = (await db.introspection.getTables()).find((table) => table.name === 'users' && !table.isView)
    if (!users) throw new CommandError(`fw ${command}: the database has no users table: run "fw make:auth", then "fw migrate"`)
    if (!users.columns.some((column) => column.name === 'is_admin')) {
      throw new CommandError(`fw ${command}: the users table has no is_admin column: run "fw migrate" (fw make:dash adds its migration)`)
    }
    const address = email.trim().toLowerCase()
    const verifies = users.columns.some((column) => column.name === 'email_verified_at')
    const user = await db
      .selectFrom('users')
      .select(verifies ? ['id', 'email_verified_at'] : ['id'])
      .where(sql`lower(email)`, '=', address)
      .executeTakeFirst()
    if (!user) throw new CommandError(`fw ${command}: no registered user has the email ${address} (they sign up at /register first)`)
    const unverified = admin && verifies && user.email_verified_at === null
    if (unverified && !force) {
      throw new CommandError(
        `fw ${command}: ${address} has not verified the email, so whoever registered it first would be admin: have its owner follow the verification link (mailed at sign-up, or asked for again at /email/verify), or pass --force`,
      )
    }
    await db.updateTable('users').set({ is_admin: admin }).where('id', '=', user.id).execute()
    return { unverified }
  } catch (error) {
    if (error instanceof CommandError) throw error
    throw new CommandError(`fw ${command} failed: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await db.destroy()
  }
}

/** `fw admin:grant ada@example.com` */
export const adminGrant: Command = {
  name: 'admin:grant',
  summary: 'Let a registered user open the dashboards of fw make:dash',
  usage: 'admin:grant <email> [--force]',
  details: [
    'Sets users.is_admin for the user who registered with that email; fw admin:revoke clears it. With email',
    'verification (make:auth\'s users.email_verified_at), the user must have verified the email first.',
    '--force  grant to a user whose email is not verified',
  ],
  options: { force: { type: 'boolean', short: 'f' } },
  arguments: 1,
  async run({ positionals, values, cwd }) {
    const email = positionals[0]!.trim().toLowerCase()
    const { unverified } = await setAdmin('admin:grant', cwd, email, true, values.force === true)
    console.log(unverified ? `${email} is now an admin, although the email is not verified (--force).` : `${email} is now an admin.`)
  },
}

/** `fw admin:revoke ada@example.com` */
export const adminRevoke: Command = {
  name: 'admin:revoke',
  summary: 'Take the admin rights of fw admin:grant back from a user',
  usage: 'admin:revoke <email>',
  details: ['Clears users.is_admin for the user who registered with that email.'],
  arguments: 1,
  async run({ positionals, cwd }) {
    const email = positionals[0]!
    await setAdmin('admin:revoke', cwd, email, false)
    console.log(`${email.trim().toLowerCase()} is no longer an admin.`)
  },
}
