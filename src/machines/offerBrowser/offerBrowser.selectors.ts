import type { SnapshotFrom } from 'xstate';
import type { offerBrowserMachine } from './offerBrowser.machine.ts';

type OfferBrowserSnapshot = SnapshotFrom<typeof offerBrowserMachine>;

export const selectShowFilters = (snapshot: OfferBrowserSnapshot) => snapshot.matches({ components: 'ready' });
export const selectComponents = (snapshot: OfferBrowserSnapshot) => snapshot.context.components;
export const selectFilters = (snapshot: OfferBrowserSnapshot) => snapshot.context.filters;
export const selectOffers = (snapshot: OfferBrowserSnapshot) => snapshot.context.offers;
export const selectIsLoading = (snapshot: OfferBrowserSnapshot) => snapshot.hasTag('busy');
export const selectHasLoaded = (snapshot: OfferBrowserSnapshot) => snapshot.context.paginator !== null;
export const selectCanNext = (snapshot: OfferBrowserSnapshot) => snapshot.can({ type: 'page.next' });
export const selectCanPrevious = (snapshot: OfferBrowserSnapshot) => snapshot.can({ type: 'page.previous' });
