import type { Kysely } from 'kysely'
import { CommandError, type Command } from './Command.js'

/**
 * Sets or clears `users.is_admin` for the registered user with that email (compared trimmed and in
 * lower case, as make:auth stores it). Fails in one line when the table, the column or the user is
 * missing, saying what to run.
 */
async function setAdmin(command: string, cwd: string, email: string, admin: boolean): Promise<void> {
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
    const result = await db
      .updateTable('users')
      .set({ is_admin: admin })
      .where(sql`lower(email)`, '=', address)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) throw new CommandError(`fw ${command}: no registered user has the email ${address} (they sign up at /register first)`)
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
  usage: 'admin:grant <email>',
  details: ['Sets users.is_admin for the user who registered with that email; fw admin:revoke clears it.'],
  arguments: 1,
  async run({ positionals, cwd }) {
    const email = positionals[0]!
    await setAdmin('admin:grant', cwd, email, true)
    console.log(`${email.trim().toLowerCase()} is now an admin.`)
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
