import { z } from 'zod/mini';

/** `?channel=` opens one trade's channel: its conversation in /chat, its dispute in /moderation. Anything else there is ignored. */
export const channelSearch = z.object({
  channel: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(100))), undefined),
});

/**
 * A list-and-detail screen's `onSelect` and `onBack` (/chat, /moderation): each tells the screen's chart (`select`,
 * `close`) and keeps `?channel=` in step through `setSearch`, which replaces the history entry rather than adds one.
 */
export function openChannelHandlers(
  setSearch: (search: { channel?: string }) => void,
  chart: { select: (channel: string) => void; close: () => void },
) {
  return {
    onSelect: (channel: string) => {
      chart.select(channel);
      setSearch({ channel });
    },
    onBack: () => {
      chart.close();
      setSearch({});
    },
  };
}
