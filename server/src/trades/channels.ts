import { randomBytes } from 'node:crypto';

/** A trade's channel: 128 random bits, base64url (22 characters), as migration 006 checks it. */
const TRADE_CHANNEL_SHAPE = /^[A-Za-z0-9_-]{22}$/;

/** Whether a name is one this server could have made, so nobody makes the database look for others. */
export const isTradeChannel = (channel: string): boolean => TRADE_CHANNEL_SHAPE.test(channel);

/**
 * A channel nobody can guess, so knowing one proves you were told it. Never one that starts `user-`: its
 * realtime name `private-<channel>` would then read as a trader's own channel `private-user-<username>`.
 */
export function newTradeChannel(): string {
  for (;;) {
    const channel = randomBytes(16).toString('base64url');
    if (!channel.startsWith('user-')) return channel;
  }
}
