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
