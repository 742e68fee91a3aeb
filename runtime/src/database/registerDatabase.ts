import { Container } from '../container/Container.js'
import { createDatabase } from './createDatabase.js'

/**
 * Registers the `db` service: one kysely instance per process, opened on first use with the
 * `DATABASE_URL` of that moment (so a `.env` loaded after this call still counts).
 * It is provided to `Container.getInstance()` below, so an application never has to call it.
 */
export function registerDatabase(container: Container): Container {
  return container.singleton('db', () => createDatabase(process.env.DATABASE_URL))
}

Container.provide(registerDatabase)
