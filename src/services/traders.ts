import { traderProfile, traderStanding, type TraderProfile, type TraderStanding } from '../../contracts/traders.ts';
import { ApiError, type Api } from './api.ts';

const NOT_FOUND = 404;

/** `market/traders/` (docs/api.md "Trader profiles"): a trader's public record, and the caller's own standing. */
export function createTraderService(api: Api) {
  return {
    /**
     * The profile, or null when nobody has that username (the server answers 404): the page says so rather
     * than showing an error. Quiet on failure: the page shows its own error state.
     */
    profile: (input: { username: string }): Promise<TraderProfile | null> =>
      api.read('market/traders/', { type: 'profile', username: input.username }, traderProfile, { noToast: true }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === NOT_FOUND) return null;
        throw error;
      }),
    /**
     * The signed-in trader's facts as offers' conditions weigh them (Browse Offers tells them before a trade).
     * Quiet on failure: the server still decides at the open, and says why.
     */
    standing: (): Promise<TraderStanding> => api.read('market/traders/', { type: 'standing' }, traderStanding, { noToast: true }),
  };
}

export type TraderService = ReturnType<typeof createTraderService>;
