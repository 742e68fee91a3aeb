import { builtinModules } from 'node:module'

const VALID = /^(?:@[a-z\d\-*~][a-z\d\-*._~]*\/)?[a-z\d\-~][a-z\d\-._~]*$/

/** Whether npm accepts `name` as a new package's name (lower case, URL-safe, at most 214 characters). */
export function isValidPackageName(name: string): boolean {
  return (
    name.length <= 214 &&
    VALID.test(name) &&
    name !== 'node_modules' &&
    name !== 'favicon.ico' &&
    !builtinModules.includes(name)
  )
}

/** The nearest valid name: `My App` → `my-app`, `_Fw Demo!` → `fw-demo`. */
export function toValidPackageName(name: string): string {
  const fixed = name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/^[._]+/, '')
    .replace(/[^a-z\d\-~._]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 214)
  if (fixed === '') return 'fw-app'
  return isValidPackageName(fixed) ? fixed : `${fixed}-app`
}
