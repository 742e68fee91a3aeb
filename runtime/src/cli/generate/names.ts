import pluralize from 'pluralize'
import { CommandError } from '../Command.js'

const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await'.split(
    ' ',
  ),
)

/**
 * Checks a class name that may sit in subfolders (`Admin/UserController`) and returns its parts:
 * every part a PascalCase identifier, so the name can never leave its folder.
 */
export function classPath(name: string, kind: string, example: string): { folders: string[]; className: string } {
  const parts = name.split('/')
  const valid = parts.every((part) => /^[A-Z][A-Za-z0-9]*$/.test(part) && !RESERVED.has(part))
  if (!valid) {
    throw new CommandError(
      `"${name}" is not a valid ${kind} name: use a PascalCase class name such as ${example}, optionally in folders (Admin/${example})`,
    )
  }
  return { folders: parts.slice(0, -1), className: parts.at(-1)! }
}

/** `BlogPost` → `blog_post` */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
}

/** `BlogPost` → `blog-post` */
export function kebabCase(name: string): string {
  return snakeCase(name).replace(/_/g, '-')
}

/**
 * The table name of a snake_case model name: English plural of its last word, by pluralize (the inflection
 * rules of Rails and Laravel), and a word that is plural already stays as it is, as Laravel's `Str::plural` keeps it.
 *
 * @example
 * ```ts
 * plural('blog_post') // 'blog_posts'
 * plural('person')    // 'people'
 * plural('posts')     // 'posts'
 * ```
 */
export function plural(name: string): string {
  const at = name.lastIndexOf('_') + 1
  return name.slice(0, at) + pluralize(name.slice(at))
}
