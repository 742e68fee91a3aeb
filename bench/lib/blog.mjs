// The blog of the db suite's relation test: authors, their posts and the posts' comments, the same rows in
// PostgreSQL and SQLite, written out here so that the one right answer of `GET /posts` is known in advance.

const AUTHORS = 20
const POSTS = 1_000
const COMMENTS_PER_POST = 3
/** Posts listed by `GET /posts`: the latest published ones. */
export const POSTS_PER_PAGE = 50
/** Every post is published but every fourth. */
const published = (id) => id % 4 !== 0
const FIRST_POST_AT = Date.UTC(2026, 0, 1)
const minutes = (count) => new Date(FIRST_POST_AT + count * 60_000)

/** The blog's tables, alike on both databases but for the type of their times. */
const blogSchema = (time) => [
  'CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL, email text NOT NULL UNIQUE)',
  `CREATE TABLE posts (id integer PRIMARY KEY, author_id integer NOT NULL REFERENCES users, title text NOT NULL, body text NOT NULL,
    published boolean NOT NULL, created_at ${time} NOT NULL, updated_at ${time} NOT NULL)`,
  'CREATE INDEX posts_author_id ON posts (author_id)',
  `CREATE TABLE comments (id integer PRIMARY KEY, post_id integer NOT NULL REFERENCES posts, body text NOT NULL, created_at ${time} NOT NULL)`,
  'CREATE INDEX comments_post_id ON comments (post_id)',
]

export const BLOG_SCHEMA = { postgres: blogSchema('timestamptz'), sqlite: blogSchema('timestamp') }

/** The rows of `users`, `posts` and `comments`, in their columns' order; times as Dates. */
export function blogRows() {
  const users = Array.from({ length: AUTHORS }, (_, i) => ({ id: i + 1, name: `Author ${i + 1}`, email: `author${i + 1}@example.com` }))
  const posts = []
  const comments = []
  for (let id = 1; id <= POSTS; id++) {
    const at = minutes(id)
    posts.push({
      id,
      author_id: ((id - 1) % AUTHORS) + 1,
      title: `Post ${id}`,
      body: `Post ${id} says what it has to say in a sentence or two, as a short post does.`,
      published: published(id),
      created_at: at,
      updated_at: at,
    })
    for (let k = 1; k <= COMMENTS_PER_POST; k++) {
      comments.push({ id: (id - 1) * COMMENTS_PER_POST + k, post_id: id, body: `Comment ${k} on post ${id}`, created_at: new Date(at.getTime() + k * 1000) })
    }
  }
  return { users, posts, comments }
}

/**
 * The one right answer of `GET /posts`: the 50 latest published posts, newest first, each with its `author`
 * (a user) and its `comments` (by id), as JSON: the columns in table order, times as ISO strings in UTC.
 */
export function postsPage() {
  const { users, posts, comments } = blogRows()
  const page = posts
    .filter((post) => post.published)
    .sort((a, b) => b.id - a.id)
    .slice(0, POSTS_PER_PAGE)
  return JSON.stringify(
    page.map((post) => ({
      ...post,
      author: users.find((user) => user.id === post.author_id),
      comments: comments.filter((comment) => comment.post_id === post.id),
    })),
  )
}
