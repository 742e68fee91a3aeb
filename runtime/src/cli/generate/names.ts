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

const IRREGULAR: Record<string, string> = { person: 'people', man: 'men', woman: 'women', child: 'children', mouse: 'mice' }
const UNCOUNTABLE = new Set(['data', 'equipment', 'information', 'media', 'news', 'series', 'species'])

/** English plural of the last word of a snake_case name: `blog_post` → `blog_posts`, `category` → `categories`. */
export function plural(name: string): string {
  const at = name.lastIndexOf('_') + 1
  const head = name.slice(0, at)
  const word = name.slice(at)
  if (UNCOUNTABLE.has(word)) return name
  if (IRREGULAR[word]) return head + IRREGULAR[word]
  if (/[^aeiou]y$/.test(word)) return head + word.slice(0, -1) + 'ies'
  if (/(s|x|z|ch|sh)$/.test(word)) return head + word + 'es'
  return head + word + 's'
}
