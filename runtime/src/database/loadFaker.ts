import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Faker } from '@faker-js/faker'
import { appRoot } from '../config/appRoot.js'

const loaded = new Map<string, Promise<Faker>>()

/**
 * @faker-js/faker from the application's own dependencies (a devDependency of the starters), loaded once, on the
 * first factory that makes a row: fw-runtime does not depend on it, and a production build never loads it.
 *
 * @example
 * ```ts
 * const faker = await loadFaker()
 * ```
 */
export function loadFaker(root: string = appRoot()): Promise<Faker> {
  let faker = loaded.get(root)
  if (faker === undefined) {
    faker = (async () => {
      let path: string
      try {
        path = createRequire(join(root, 'package.json')).resolve('@faker-js/faker')
      } catch {
        throw new Error('Factories make their fake values with @faker-js/faker: npm install --save-dev @faker-js/faker')
      }
      return ((await import(pathToFileURL(path).href)) as { faker: Faker }).faker
    })()
    loaded.set(root, faker)
  }
  return faker
}
