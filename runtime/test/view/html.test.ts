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

  it('escapes the same as a replace of each character, for short and long texts with specials anywhere', () => {
    const reference = (text: string) =>
      text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')
    const alphabet = ['a', 'Z', ' ', '&', '<', '>', '"', "'", ';', '#', 'é', 'フ', '😀', '\n']
    let seed = 7
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648)
    for (let count = 0; count < 2_000; count++) {
      const length = count < 1_900 ? next() % 40 : 2_000 + (next() % 20_000)
      let text = ''
      for (let index = 0; index < length; index++) text += alphabet[next() % alphabet.length]
      expect(escapeHtml(text)).toBe(reference(text))
    }
    expect(escapeHtml(`${'x'.repeat(50_000)}<&>${'y'.repeat(50_000)}`)).toBe(`${'x'.repeat(50_000)}&lt;&amp;&gt;${'y'.repeat(50_000)}`)
  })
})
