/**
 * The pieces of the pages that list conversations on the left and open the chosen one on the right, the page
 * opened on one by `?channel=` too (the chat, the dispute desk), so each chart says once what they do alike
 * while staying one file the Stately visualizer loads on its own. The names a chart declares in `setup` are the
 * guards of `channelGuards`.
 */

type Chosen = { context: { channel: string | null } };

/** The guards of the chosen channel, for the chart's `setup`. */
export const channelGuards = {
  hasChannel: ({ context }: Chosen) => context.channel !== null,
  isCurrentChannel: ({ context }: Chosen, params: { channel: string }) => params.channel === context.channel,
};

/**
 * `none`: nothing chosen (`description` says what the pane shows); a page opened on a channel goes on to
 * `target` at once (`openedOn` says how it was asked for).
 */
export const noneChosen = (description: string, target: string, openedOn: string) => ({
  description,
  always: { guard: 'hasChannel' as const, target, description: openedOn },
});
