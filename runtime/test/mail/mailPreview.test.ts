import { afterEach, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { mail, Mailable } from '../../src/mail.js'
import { Router } from '../../src/routing/Router.js'
import { serveNode } from '../../src/server/serveNode.js'
import { listenOn } from '../support/servers.js'

class AlertMail extends Mailable<{ n: number }> {
  subject = `Alert ${this.data.n} <b>`

  html(): string {
    return `<p class="x">Alert ${this.data.n}</p><script>parent.document.title = "pwned"</script>`
  }

  override text(): string {
    return `Alert ${this.data.n} & more`
  }
}

const saved = process.env.NODE_ENV
afterEach(() => {
  process.env.NODE_ENV = saved
  vi.restoreAllMocks()
})

/** GET `path` from a router on a real socket; its status, headers and body. */
async function get(router: Router, path: string): Promise<{ status: number; headers: Headers; body: string }> {
  const server = await listenOn(serveNode, router)
  try {
    const response = await fetch(`${server.url}${path}`)
    return { status: response.status, headers: response.headers, body: await response.text() }
  } finally {
    await server.close()
  }
}

describe('/_fw/mail', () => {
  it('lists the log mailer\'s messages, newest first, each HTML escaped into a sandboxed frame, in development', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined)
    await mail.to('Ada <ada@example.com>').sendNow(new AlertMail({ n: 1 }))
    await mail.to('grace@example.com').bcc('audit@example.com').sendNow(new AlertMail({ n: 2 }))

    const { status, headers, body } = await get(new Router(new Container()), '/_fw/mail')
    expect(status).toBe(200)
    expect(headers.get('content-type')).toMatch(/^text\/html/)
    expect(headers.get('content-security-policy')).toBe("script-src 'none'; frame-ancestors 'none'")
    expect(body).toContain('They live in the memory of this process')
    expect(body.indexOf('<h2>Alert 2 &lt;b&gt;</h2>')).toBeGreaterThan(0)
    expect(body.indexOf('<h2>Alert 2 &lt;b&gt;</h2>')).toBeLessThan(body.indexOf('<h2>Alert 1 &lt;b&gt;</h2>'))
    expect(body).toContain('<dt>To</dt><dd>Ada &lt;ada@example.com&gt;</dd>')
    expect(body).toContain('<dt>Bcc</dt><dd>audit@example.com</dd>')
    expect(body).toContain(
      '<iframe sandbox srcdoc="&lt;p class=&quot;x&quot;&gt;Alert 1&lt;/p&gt;&lt;script&gt;parent.document.title = &quot;pwned&quot;&lt;/script&gt;"',
    )
    expect(body).toContain('<pre>Alert 1 &amp; more</pre>')
    // The mail's markup never reaches the page as markup.
    expect(body).not.toContain('<script')
    expect(body).not.toContain('<p class="x">')
  })

  it('is a 404 in production, like any unknown path', async () => {
    process.env.NODE_ENV = 'production'
    const { status, body } = await get(new Router(new Container()), '/_fw/mail')
    expect([status, body]).toEqual([404, '{"error":"Not Found"}'])
  })

  it('leaves the path to a route of the app that takes it', async () => {
    const router = new Router(new Container())
    router.get('/_fw/mail', () => ({ mine: true }))
    const { status, body } = await get(router, '/_fw/mail')
    expect([status, body]).toEqual([200, '{"mine":true}'])
  })
})
