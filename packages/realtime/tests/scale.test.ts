import type PusherClient from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dropKeys, keysOf, startNode, testPrefix, type RealtimeNode } from './support/cluster.ts';
import { connected, eventually, nextEvent, pusherClient, serverSdk, subscribed } from './support/clients.ts';

/**
 * Several server processes behind one Redis (docs/pusher-and-beams.md "Several processes"): each test's nodes are real processes
 * (packages/realtime/tests/support/node.ts) under a key prefix of their own.
 */

const opened: PusherClient[] = [];
const on = (node: RealtimeNode, user?: { id: string; name: string }) => {
  const client = pusherClient({ port: node.port, user });
  opened.push(client);
  return client;
};
afterEach(() => opened.splice(0).forEach((client) => client.disconnect()));

type Member = { id: string; info: unknown };
type Members = { count: number; each(callback: (member: Member) => void): void };
const idsOf = (members: Members) => {
  const ids: string[] = [];
  members.each((member) => ids.push(member.id));
  return ids.sort();
};

describe('two processes on one Redis', () => {
  const prefix = testPrefix();
  let a: RealtimeNode;
  let b: RealtimeNode;
  beforeAll(async () => {
    [a, b] = await Promise.all([startNode(prefix), startNode(prefix)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await dropKeys(prefix);
  });

  it('delivers a trigger on A to subscribers on both, each exactly once', async () => {
    const [onA, onB] = [on(a), on(b)];
    const [{ channel: channelA }, { channel: channelB }] = await Promise.all([subscribed(onA, 'coin_price'), subscribed(onB, 'coin_price')]);
    const seen: string[] = [];
    channelA.bind('price', (data: { n: number }) => seen.push(`A ${data.n}`));
    channelB.bind('price', (data: { n: number }) => seen.push(`B ${data.n}`));
    const sentinels = Promise.all([nextEvent(channelA, 'sentinel'), nextEvent(channelB, 'sentinel')]);
    await a.trigger(['coin_price'], 'price', { n: 1 });
    await a.trigger(['coin_price'], 'price', { n: 2 });
    // Published after the prices on the same path: once it has arrived everywhere, so has everything before it.
    await a.trigger(['coin_price'], 'sentinel', {});
    await sentinels;
    expect(seen.sort()).toEqual(['A 1', 'A 2', 'B 1', 'B 2']);
  });

  it("leaves out the socket_id given, on whichever process that socket lives", async () => {
    const [onA, onB] = [on(a), on(b)];
    const socketOnB = await connected(onB);
    const [{ channel: channelA }, { channel: channelB }] = await Promise.all([subscribed(onA, 'room'), subscribed(onB, 'room')]);
    const seen: string[] = [];
    channelA.bind('said', () => seen.push('A'));
    channelB.bind('said', () => seen.push('B'));
    const sentinel = nextEvent(channelB, 'sentinel');
    // Through A's HTTP API, as an integrator's SDK would.
    await serverSdk(a.port).trigger('room', 'said', {}, { socket_id: socketOnB });
    await serverSdk(a.port).trigger('room', 'sentinel', {});
    await sentinel;
    await eventually(() => seen.length === 1);
    expect(seen).toEqual(['A']);
  });

  it('shares presence: lists, member_added and member_removed cross processes, a second tab stays silent', async () => {
    const ann = on(a, { id: 'ann', name: 'Ann' });
    const { channel: annChannel } = await subscribed(ann, 'presence-trade-9');
    const added: string[] = [];
    const removed: string[] = [];
    annChannel.bind('pusher:member_added', (member: Member) => added.push(member.id));
    annChannel.bind('pusher:member_removed', (member: Member) => removed.push(member.id));

    const ben = on(b, { id: 'ben', name: 'Ben' });
    const { data } = await subscribed(ben, 'presence-trade-9');
    expect(idsOf(data as Members)).toEqual(['ann', 'ben']);
    await eventually(() => added.length === 1, 5000, 'member_added on A');
    expect(added).toEqual(['ben']);

    // Ann's second tab, on B: nobody hears of it, and Ben's list does not change.
    const annAgain = on(b, { id: 'ann', name: 'Ann' });
    const { data: secondTab } = await subscribed(annAgain, 'presence-trade-9');
    expect((secondTab as Members).count).toBe(2);
    const cy = on(b, { id: 'cy', name: 'Cy' });
    const { channel: cyChannel } = await subscribed(cy, 'presence-trade-9');
    await eventually(() => added.length === 2, 5000, "Cy's member_added on A");
    expect(added).toEqual(['ben', 'cy']);

    const users = async (node: RealtimeNode) =>
      ((await (await serverSdk(node.port).get({ path: '/channels/presence-trade-9/users' })).json()) as { users: Array<{ id: string }> }).users
        .map((user) => user.id)
        .sort();
    expect(await users(a)).toEqual(['ann', 'ben', 'cy']);

    // Ann's tab on A closes: she is still there on B, nobody hears of it. Ben leaves, then Ann's last tab:
    // Cy, on B, hears of both, in that order, once each.
    const gone: string[] = [];
    cyChannel.bind('pusher:member_removed', (member: Member) => gone.push(member.id));
    ann.disconnect();
    ben.disconnect();
    await eventually(() => gone.length === 1, 5000, "Ben's member_removed on B");
    expect(await users(b)).toEqual(['ann', 'cy']);
    annAgain.disconnect();
    await eventually(() => gone.length === 2, 5000, "Ann's member_removed on B");
    expect(gone).toEqual(['ben', 'ann']);
    expect(await users(a)).toEqual(['cy']);
  });

  it('agrees on the member list when many join at once on both processes', async () => {
    // Each join's list and the member_added of joins racing it arrive by different Redis connections; every
    // client must still end with everyone, each once.
    const users = Array.from({ length: 12 }, (_, i) => ({ id: `u${i}`, name: `U${i}` }));
    const clients = users.map((user, i) => on(i % 2 ? a : b, user));
    const channels = await Promise.all(clients.map(async (client) => (await subscribed(client, 'presence-rush')).channel));
    const everyone = users.map((user) => user.id).sort();
    for (const channel of channels) {
      const members = (channel as unknown as { members: Members }).members;
      await eventually(() => members.count === users.length, 5000, 'every member known');
      expect(idsOf(members)).toEqual(everyone);
    }
  });

  it('answers occupied() and the channel counts for the whole fleet', async () => {
    const [onA, onB, alsoB] = [on(a), on(b), on(b)];
    await Promise.all([subscribed(onB, 'private-user-frank'), subscribed(alsoB, 'private-user-frank'), subscribed(onA, 'private-user-gina')]);
    expect(await a.occupied(['private-user-frank', 'private-user-gina', 'private-user-hal'])).toEqual(
      new Set(['private-user-frank', 'private-user-gina']),
    );
    const sdk = serverSdk(a.port);
    const listed = await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'private-user-', info: 'subscription_count' } })).json();
    expect(listed).toEqual({ channels: { 'private-user-frank': { subscription_count: 2 }, 'private-user-gina': { subscription_count: 1 } } });

    onB.disconnect();
    alsoB.disconnect();
    await eventually(async () => (await a.occupied(['private-user-frank'])).size === 0, 5000, 'frank vacated');
  });

  it("closes a session's sockets on the other process before they hear anything published after its end", async () => {
    const thief = pusherClient({ port: b.port, session: 'session-ended' });
    const owner = pusherClient({ port: b.port, session: 'session-live' });
    opened.push(thief, owner);
    const [{ channel: onThief }, { channel: onOwner }] = await Promise.all([subscribed(thief, 'private-victim'), subscribed(owner, 'private-victim')]);
    const thiefHeard: unknown[] = [];
    onThief.bind('notification', (data: unknown) => thiefHeard.push(data));
    const heard = nextEvent(onOwner, 'notification');
    // Nothing of the thief's is on A: it closes none there, and says so on the bus ahead of the trigger.
    expect(await a.endSessions(['session-ended'])).toBe(0);
    await a.trigger(['private-victim'], 'notification', { title: 'Password changed' });
    expect(await heard).toEqual({ title: 'Password changed' });
    await eventually(() => thief.connection.state === 'disconnected', 2000, "the thief's socket closed");
    expect(thiefHeard).toEqual([]);
    expect(owner.connection.state).toBe('connected');
  });
});

describe('a process that dies', () => {
  const prefix = testPrefix();
  const nodes: RealtimeNode[] = [];
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await dropKeys(prefix);
  });

  it('has its presence members and counts taken out once its heartbeat expires', async () => {
    const [survivor, doomed] = await Promise.all([startNode(prefix, 900), startNode(prefix, 900)]);
    nodes.push(survivor, doomed);
    const ann = on(survivor, { id: 'ann', name: 'Ann' });
    const { channel } = await subscribed(ann, 'presence-desk');
    const joined = nextEvent<Member>(channel, 'pusher:member_added');
    const dora = on(doomed, { id: 'dora', name: 'Dora' });
    await subscribed(dora, 'presence-desk');
    expect((await joined).id).toBe('dora');
    expect(await survivor.occupied(['presence-desk'])).toEqual(new Set(['presence-desk']));
    const dorasCount = async () =>
      ((await (await serverSdk(survivor.port).get({ path: '/channels/presence-desk', params: { info: 'subscription_count,user_count' } })).json()) as {
        subscription_count: number;
        user_count: number;
      });
    expect(await dorasCount()).toEqual({ occupied: true, subscription_count: 2, user_count: 2 });

    const left = nextEvent<Member>(channel, 'pusher:member_removed', 10_000);
    await doomed.kill();
    expect((await left).id).toBe('dora');
    // The dead node may have committed changes it never published, so the survivor ends its sockets (4200,
    // bus.ts "Gaps") and Ann's pusher-js reconnects at once: the counts come back to Ann alone.
    await expect.poll(dorasCount, { timeout: 10_000 }).toEqual({ occupied: true, subscription_count: 1, user_count: 1 });
    // Only the survivor's own keys are left (written again as Ann's subscription comes back, so polled too).
    const nodeIds = async () =>
      new Set((await keysOf(prefix)).filter((key) => key.includes(':node:')).map((key) => key.split(':node:')[1].split(':')[0])).size;
    await expect.poll(nodeIds, { timeout: 10_000 }).toBe(1);
  });

  it('takes its members out at once when it closes gracefully', async () => {
    const [survivor, leaving] = await Promise.all([startNode(prefix), startNode(prefix)]);
    nodes.push(survivor, leaving);
    const ann = on(survivor, { id: 'ann', name: 'Ann' });
    const { channel } = await subscribed(ann, 'presence-lounge');
    const eli = on(leaving, { id: 'eli', name: 'Eli' });
    const joined = nextEvent<Member>(channel, 'pusher:member_added');
    await subscribed(eli, 'presence-lounge');
    await joined;
    const left = nextEvent<Member>(channel, 'pusher:member_removed');
    // Eli's pusher-js will reconnect (4200) to the closed port and fail; stop it from trying.
    eli.connection.bind('state_change', ({ current }: { current: string }) => current === 'connecting' && eli.disconnect());
    await leaving.close();
    expect((await left).id).toBe('eli');
  });
});
