import type { PackageManager } from './args.js'

/** The package manager that runs this command, from `npm_config_user_agent` (`pnpm/9.1.0 npm/? node/v20…`). */
export function detectPackageManager(userAgent = process.env.npm_config_user_agent): PackageManager {
  const name = userAgent?.split(' ', 1)[0]?.split('/', 1)[0]
  return name === 'pnpm' || name === 'yarn' ? name : 'npm'
}

/** How the user runs a script: `npm run dev`, `pnpm dev`, `yarn dev`; `npm test` has a short form. */
export function runScript(pm: PackageManager, script: string): string {
  if (pm !== 'npm') return `${pm} ${script}`
  return script === 'test' || script === 'start' ? `npm ${script}` : `npm run ${script}`
}
