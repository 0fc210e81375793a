import type { ChatMessage } from '../../../contracts/index.ts';

/**
 * A chat's messages by id, oldest first: one heard live and read again shows once (the trade chat, the
 * dispute desk).
 */
export function withMessages(known: readonly ChatMessage[], arrived: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(known.map((message) => [message.id, message]));
  for (const message of arrived) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The id of the newest message written to `username` (the partner's or a moderator's; not their own, not the
 * system's): what an unread count counts (docs/api.md "Chat calls"), so what a read mark need reach. Null: none.
 */
export function newestWrittenTo(messages: readonly ChatMessage[], username: string): number | null {
  let newest: number | null = null;
  for (const message of messages) {
    if (message.sender !== null && message.sender !== username && (newest === null || message.id > newest)) newest = message.id;
  }
  return newest;
}
