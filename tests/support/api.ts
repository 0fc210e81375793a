/** A fake server for the web app's api and services: a `fetch` that answers from a script, and fake Apis. */
import { vi } from 'vitest';
import { createApi, type Api, type ApiOptions } from '../../src/services/api.ts';

export type Answer = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string> } | 'network-error';
export type Sent = { url: string; method: string; headers: Headers; body: unknown; at: number };

/** A fake `fetch` that answers from a list (the last answer repeats) and records every request. */
export function fakeServer(...answers: Answer[]) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request = input instanceof Request ? input : undefined;
    sent.push({
      url: request ? request.url : String(input),
      method: (init.method ?? request?.method ?? 'GET').toUpperCase(),
      headers: new Headers(init.headers ?? request?.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      at: Date.now(),
    });
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)]!;
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    const text = answer.raw ?? JSON.stringify(answer.body);
    return new Response(text, { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json', ...answer.headers } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

export function apiWith(server: ReturnType<typeof fakeServer>, options: Partial<ApiOptions> = {}) {
  const onError = vi.fn();
  const onSessionExpired = vi.fn();
  const api = createApi({
    baseUrl: '/api/',
    getToken: () => null,
    onError,
    onSessionExpired,
    fetch: server.fetch,
    ...options,
  });
  return { api, onError, onSessionExpired };
}

export const ok = (info: unknown, status = 200, headers?: Record<string, string>): Answer => ({ status, body: { success: true, info }, headers });
export const refused = (info: unknown, status = 200): Answer => ({ status, body: { success: false, info } });

/** Whether a request carried X-No-Toast (a call whose refusal shows no toast). */
export const noToast = (sent: Sent) => sent.headers.has('X-No-Toast');

/** An Api that records each call and answers from `answers`, keyed by the body's `type`. */
export function recordingApi(answers: Record<string, unknown>) {
  const calls: { how: 'read' | 'write'; path: string; body: unknown; schema: unknown; options: unknown }[] = [];
  const answer = (how: 'read' | 'write') => async (path: string, body: unknown, schema: unknown, options?: unknown) => {
    calls.push({ how, path, body, schema, options });
    return answers[(body as { type: string }).type];
  };
  return { api: { read: answer('read'), write: answer('write') } as unknown as Api, calls };
}
