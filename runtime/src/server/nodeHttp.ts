import type * as Http from 'node:http'
import { createRequire } from 'node:module'
import type Polka from 'polka'

// node:http and polka, loaded as CommonJS. Imported as ES modules, node:http has Node build a module
// namespace from every one of its exports, and three of them (WebSocket, CloseEvent, MessageEvent) load
// undici when read: about 40 ms of every start, for a WebSocket client the server never uses
// (nodejs/node#57649, #59686). polka's ES build imports node:http that way; its CommonJS build requires it.
// The types still come from the `import type`s above.
const require = createRequire(import.meta.url)

export const { createServer, STATUS_CODES } = require('node:http') as typeof Http
export const polka = require('polka') as typeof Polka
