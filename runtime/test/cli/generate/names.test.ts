import { describe, expect, it } from 'vitest'
import { plural, snakeCase } from '../../../src/cli/generate/names.js'

describe('plural', () => {
  it.each([
    ['Post', 'posts'],
    ['Posts', 'posts'],
    ['Person', 'people'],
    ['People', 'people'],
    ['Category', 'categories'],
    ['BlogPost', 'blog_posts'],
    ['BlogPosts', 'blog_posts'],
    ['BlogPerson', 'blog_people'],
    ['Status', 'statuses'],
    ['Statuses', 'statuses'],
    ['Datum', 'data'],
    ['UserData', 'user_data'],
    ['Box', 'boxes'],
    ['Child', 'children'],
    ['Analysis', 'analyses'],
    ['Address', 'addresses'],
    ['News', 'news'],
    ['Hero', 'heroes'],
    ['Leaf', 'leaves'],
  ])('names the table of %s %s, as Laravel does', (className, table) => {
    expect(plural(snakeCase(className))).toBe(table)
  })
})
