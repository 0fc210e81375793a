import type { DisputeOutcome } from '../../contracts/index.ts';
import { disputeDetail, disputeList, moderationMessageResponse, resolveResponse } from '../../contracts/moderation.ts';
import type { Api } from './api.ts';

const PATH = 'market/moderation/';

/** `market/moderation/` (docs/api.md "Moderation"): the dispute desk's calls, moderators only (403 for anyone else). */
export function createModerationService(api: Api) {
  return {
    /** The open disputes, oldest first. Quiet on failure: the desk shows its own error state with a retry. */
    list: () => api.read(PATH, { type: 'list' }, disputeList, { noToast: true }),
    /** One trade's facts and whole chat. Quiet on failure, like the list. */
    get: (input: { channel: string }) => api.read(PATH, { type: 'get', channel: input.channel }, disputeDetail, { noToast: true }),
    /** A message into the trade's chat as "Moderator"; a refusal is a red toast with the server's sentence. */
    message: (input: { channel: string; text: string }) =>
      api.write(PATH, { type: 'message', channel: input.channel, text: input.text }, moderationMessageResponse),
    /** Settles the dispute; answers the sentence of the success toast, or refuses (409: settled already) with a red toast. */
    resolve: (input: { channel: string; outcome: DisputeOutcome; resolution: string }) =>
      api.write(PATH, { type: 'resolve', channel: input.channel, outcome: input.outcome, resolution: input.resolution }, resolveResponse),
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
