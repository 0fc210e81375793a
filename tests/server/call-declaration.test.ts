/**
 * A call's declaration (server/src/infra/http/call.ts): the names its schemas carry in the OpenAPI document come
 * from their contracts (contracts/common.ts `apiNames`), `byType` documents the types sharing a schema as one
 * payload, and per-type `handlers` have their payload checked against their type's schema on the way out.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { apiNames } from '../../contracts/common.ts';
import { byType, defineCall, envelope, type Call } from '../../server/src/infra/http/call.ts';

const named = <S extends z.core.$ZodType>(id: string, schema: S): S => {
  apiNames.add(schema, { id });
  return schema;
};

const request = named('TestCallRequest', z.discriminatedUnion('type', [z.object({ type: z.literal('count') }), z.object({ type: z.literal('say'), text: z.string() })]));
const counted = named('TestCallCount', z.object({ count: z.int() }));
const said = named('TestCallSentence', z.string());

const declaration = {
  method: 'post',
  path: '/api/test/',
  tag: 'Test',
  summary: 'Test',
  description: 'Test.',
  access: 'public',
} as const;

/** Runs a call's handler as the router does, with the body already parsed. */
const answerOf = (call: Call, body: unknown) =>
  (call.handle as (context: { app: FastifyInstance; request: FastifyRequest; reply: FastifyReply; body: unknown }) => Promise<unknown>)({
    app: {} as FastifyInstance,
    request: {} as FastifyRequest,
    reply: {} as FastifyReply,
    body,
  });

describe('a call declaration', () => {
  it('names its request and answers by their contracts, and refuses a schema that has no name', () => {
    const call = defineCall({ ...declaration, request, answer: envelope(said), handle: async () => undefined });
    expect(call.request?.name).toBe('TestCallRequest');
    expect(call.answer).toMatchObject({ kind: 'envelope', infos: [{ name: 'TestCallSentence', schema: said }] });
    expect(() => defineCall({ ...declaration, request: z.object({ type: z.literal('count') }), answer: envelope(said), handle: async () => undefined })).toThrow(
      /no name for the OpenAPI document/,
    );
  });

  it('documents the types that share a schema as one payload, in the order they come, and one schema for all without types', () => {
    expect(byType({ count: counted, say: said, again: counted }).infos).toEqual([
      { name: 'TestCallCount', schema: counted, when: ['count', 'again'] },
      { name: 'TestCallSentence', schema: said, when: ['say'] },
    ]);
    expect(byType({ count: said, say: said }).infos).toEqual([{ name: 'TestCallSentence', schema: said }]);
  });

  it("answers each type's payload in the envelope, checked against that type's schema", async () => {
    let counting = 2;
    const call = defineCall({
      ...declaration,
      request,
      answer: byType({ count: counted, say: said }),
      handlers: () => ({
        count: async () => ({ count: counting }),
        say: async (body) => body.text,
      }),
    });
    expect(await answerOf(call, { type: 'count' })).toEqual({ success: true, info: { count: 2 } });
    expect(await answerOf(call, { type: 'say', text: 'hello' })).toEqual({ success: true, info: 'hello' });
    counting = 2.5;
    await expect(answerOf(call, { type: 'count' })).rejects.toThrow();
  });

  it('takes either one handler or handlers by type, the latter only with an answer by type', () => {
    expect(() => defineCall({ ...declaration, request, answer: envelope(said) })).toThrow(/either `handle`, or `handlers`/);
    expect(() =>
      defineCall({ ...declaration, request, answer: { kind: 'empty', status: 204 }, handlers: () => ({ count: async () => ({ count: 1 }), say: async () => 'hi' }) }),
    ).toThrow(/either `handle`, or `handlers`/);
  });
});
