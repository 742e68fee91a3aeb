import { describe, expect, it } from 'vitest'
import { escapeHtml, html, raw, SafeHtml } from '../../src/view/html.js'

describe('html', () => {
  it('escapes every interpolated value', () => {
    const name = `<script>alert("x")</script> & 'friends'`
    expect(html`<p title="${name}">${name}</p>`.toString()).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;</p>',
    )
  })

  it('keeps nested html and raw markup, joins arrays, and drops null, undefined and false', () => {
    const items = ['a<b', 'c']
    const out = html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>${null}${undefined}${false}${raw('<hr>')}${0}`
    expect(out).toBeInstanceOf(SafeHtml)
    expect(out.toString()).toBe('<ul><li>a&lt;b</li><li>c</li></ul><hr>0')
  })

  it('escapeHtml turns any value into text', () => {
    expect(escapeHtml(42)).toBe('42')
    expect(escapeHtml('"<>&\'')).toBe('&quot;&lt;&gt;&amp;&#39;')
  })

  it('escapes a special character wherever it is, call after call, and leaves plain text as it is', () => {
    const texts = ['plain text', 'ends with &', '<starts', 'フレームワーク "quoted"', 'plain again', "it's", '']
    const escaped = ['plain text', 'ends with &amp;', '&lt;starts', 'フレームワーク &quot;quoted&quot;', 'plain again', 'it&#39;s', '']
    for (let round = 0; round < 3; round++) expect(texts.map(escapeHtml)).toEqual(escaped)
    expect(escapeHtml({ toString: () => '<b>' })).toBe('&lt;b&gt;')
    expect(html`${[['a&', [html`<i>${'<'}</i>`]], 'b']}`.toString()).toBe('a&amp;<i>&lt;</i>b')
  })
})
