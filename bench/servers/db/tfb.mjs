// What every server of the db suite does alike, by TechEmpower's rules: the random id, the `queries`
// parameter, and the fortunes page (the added row, the sort, the escaping); and the blog page of the peers
// that load it by hand. Only the database access and the framework differ from one server to the next.

/** A random id of `world`, 1..10,000. */
export const randomId = () => 1 + Math.floor(Math.random() * 10000)

/** The `queries` parameter: missing, not a number or below 1 is 1; above 500 is 500. */
export function queryCount(value) {
  const n = Number.parseInt(value ?? '', 10)
  return Number.isNaN(n) || n < 1 ? 1 : n > 500 ? 500 : n
}

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c])

/** The fortunes from the database, plus the one added at request time, sorted by message, as an HTML page. */
export function fortunesPage(fortunes) {
  fortunes.push({ id: 0, message: 'Additional fortune added at request time.' })
  fortunes.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0))
  let rows = ''
  for (const f of fortunes) rows += `<tr><td>${f.id}</td><td>${escape(f.message)}</td></tr>`
  return `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${rows}</table></body></html>`
}

/** The blog page's posts from rows of posts joined to their authors (`author_name`, `author_email`), comments to come. */
export const postsOfRows = (rows) =>
  rows.map(({ author_name, author_email, ...post }) => ({ ...post, author: { id: post.author_id, name: author_name, email: author_email }, comments: [] }))

/** Puts each comment, in the order given, on its post; returns the posts. */
export function withComments(posts, comments) {
  const byId = new Map(posts.map((post) => [post.id, post]))
  for (const comment of comments) byId.get(comment.post_id).comments.push(comment)
  return posts
}
