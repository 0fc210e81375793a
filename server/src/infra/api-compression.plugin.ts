import fastifyCompress from '@fastify/compress';
import { shared } from './shared.ts';

/**
 * Below this an answer is sent as is: a sign-in or a trade action's few hundred bytes would gain a few dozen
 * bytes and cost a compression each. Browse Offers' pages, the wallet, the chat history are above it.
 */
export const API_COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Route option for an answer that carries a secret: a session or interim token, a websocket token, a TOTP
 * secret and recovery codes, a channel signature, a Beams token. Such an answer is never compressed (BREACH:
 * when a secret and text the caller chose are compressed together, the size of the answer leaks the secret
 * byte by byte to whoever can watch the sizes on the wire and make the browser repeat the call).
 */
export const SECRET_ANSWER = { compress: false } as const;

/**
 * API answers, compressed per request (brotli at quality 4, or gzip) above the threshold, with `Vary:
 * Accept-Encoding`. Only in the /api scope: the built web app's files are compressed once at build time
 * (vite.config.ts) and sent as they are (web-app.ts). Shared with the scope it is registered in, before its routes. Bodies sent compressed are not accepted: the body limit
 * would count the compressed bytes, and a small gzip can inflate to gigabytes.
 */
export const apiCompressionPlugin = shared('peerex-api-compression', async (app) => {
  await app.register(fastifyCompress, {
    threshold: API_COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });
});

/**
 * Loads the fetch API's globals, which Node loads at their first use: @fastify/compress's onSend asks whether each
 * answer is a `Response`, so the first API answer after a start loaded them (undici, 20 ms on Node 20 and 30 to 40 ms
 * on Node 24, bench/README.md "Restart to ready"). app.ts calls this before the database plugin, whose wait for
 * PGlite's thread or PostgreSQL it then fills.
 */
export function loadFetchGlobals(): void {
  void globalThis.Response;
}
