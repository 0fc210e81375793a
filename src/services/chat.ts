import { chatMessage, chatMessages, conversationRead, conversations, tradeSummary, typingResponse } from '../../contracts/index.ts';
import type { Api } from './api.ts';

/** The chat calls (docs/api.md "Chat calls"): the conversation list, one conversation's messages, and its read mark. */
export function createChatService(api: Api) {
  const path = (channel: string) => `market/chat/${encodeURIComponent(channel)}/`;
  return {
    /** Chat failures clear the loading state and show no message of their own (docs/web-app.md "Failures"). */
    conversations: (input: { search: string }) =>
      api.read('market/chat/', { type: 'conversations', ...(input.search.trim() ? { search: input.search.trim() } : {}) }, conversations, {
        noToast: true,
      }),
    messages: (input: { channel: string }) => api.read(path(input.channel), { type: 'messages' }, chatMessages, { noToast: true }),
    /** The trade's terms for the conversation's header; without them the header shows the partner and the status. */
    summary: (input: { channel: string }) => api.read(path(input.channel), { type: 'summary' }, tradeSummary, { noToast: true }),
    send: (input: { channel: string; text: string }) =>
      api.write(path(input.channel), { type: 'send_message', message_type: 'text', text: input.text }, chatMessage),
    /**
     * The trader has read this conversation up to `upTo`, the newest message it showed them: its unread count goes to 0,
     * and a message after it still counts. Quiet: the list shows the count the server keeps.
     */
    markRead: (input: { channel: string; upTo: number }) =>
      api.write(`${path(input.channel)}read/`, { type: 'read', up_to: input.upTo }, conversationRead, { noToast: true }),
    /** Best effort: a lost typing notice is not worth a toast. */
    typing: (input: { channel: string }) => api.write(path(input.channel), { type: 'typing' }, typingResponse, { noToast: true }),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
