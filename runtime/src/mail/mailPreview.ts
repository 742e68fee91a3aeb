import { Response } from '../http/Response.js'
import type { Middleware } from '../http/Middleware.js'
import { html } from '../view/html.js'
import { formatAddress } from './address.js'
import { KEPT_MAIL, recentMail, type LoggedMail } from './logMailer.js'
import type { Address } from './MailMessage.js'

/** Where the page is, in development only. */
export const MAIL_PREVIEW_PATH = '/_fw/mail'

/**
 * The page `/_fw/mail`, which the router puts in place outside production (never in it: there the path is a 404 like
 * any other): the last messages the log mailer wrote in this process, newest first, each with its HTML shown in a
 * sandboxed frame (its markup escaped into `srcdoc`, so that none of its scripts ever runs in the app's origin) and
 * its text. It answers GET and HEAD to that path when no route of the app takes it.
 *
 * @example
 * ```ts
 * const pages = isProduction() ? [] : [mailPreview()]
 * ```
 */
export function mailPreview(): Middleware {
  return (request, next) => {
    const method = request.method()
    if (request.uri() !== MAIL_PREVIEW_PATH || (method !== 'GET' && method !== 'HEAD')) return next()
    // The mail's own script stays off even if a browser ignored the frame's sandbox (srcdoc inherits this policy).
    return Response.html(page(recentMail())).setHeader('Content-Security-Policy', "script-src 'none'; frame-ancestors 'none'")
  }
}

function page(mails: readonly LoggedMail[]): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Mail · Fw</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
  article { border-top: 1px solid #ddd; padding: 1rem 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: 0 0 1rem; }
  dt { color: #666; }
  dd { margin: 0; }
  iframe { width: 100%; height: 24rem; border: 1px solid #ddd; background: #fff; }
  pre { white-space: pre-wrap; background: #f6f6f6; padding: 1rem; }
</style>
</head>
<body>
<h1>Mail</h1>
<p>The last ${KEPT_MAIL} messages the log mailer (<code>MAIL_MAILER=log</code>) wrote instead of sending them, newest first.
They live in the memory of this process: a restart empties the list, and mail written by another process
(<code>fw queue:work</code>) is in its log, not here. This page exists outside production only.</p>
${mails.length === 0 ? html`<p>No mail yet.</p>` : mails.map(entry)}
</body>
</html>
`.toString()
}

function entry({ at, message }: LoggedMail) {
  const addresses = (list: Address[]) => list.map(formatAddress).join(', ')
  return html`<article>
<h2>${message.subject}</h2>
<dl>
  <dt>When</dt><dd><time datetime="${at.toISOString()}">${at.toISOString()}</time></dd>
  <dt>Mail</dt><dd>${message.mailable}</dd>
  <dt>From</dt><dd>${formatAddress(message.from)}</dd>
  ${message.replyTo ? html`<dt>Reply-To</dt><dd>${formatAddress(message.replyTo)}</dd>` : ''}
  <dt>To</dt><dd>${addresses(message.to)}</dd>
  ${message.cc.length ? html`<dt>Cc</dt><dd>${addresses(message.cc)}</dd>` : ''}
  ${message.bcc.length ? html`<dt>Bcc</dt><dd>${addresses(message.bcc)}</dd>` : ''}
</dl>
<iframe sandbox srcdoc="${message.html}" title="${message.subject}"></iframe>
${message.text === undefined ? '' : html`<details><summary>Text</summary><pre>${message.text}</pre></details>`}
</article>
`
}
