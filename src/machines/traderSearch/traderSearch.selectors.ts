import type { SnapshotFrom } from 'xstate';
import type { traderSearchMachine } from './traderSearch.machine.ts';

type SearchSnapshot = SnapshotFrom<typeof traderSearchMachine>;

export const selectQuery = (snapshot: SearchSnapshot) => snapshot.context.query;
export const selectTraders = (snapshot: SearchSnapshot) => snapshot.context.traders;
/** The search the rows answer: "No trader matches …" names it. */
export const selectSearched = (snapshot: SearchSnapshot) => snapshot.context.searched.trim();
export const selectIsLoading = (snapshot: SearchSnapshot) => snapshot.hasTag('busy');
/** Whether an answer came: before it, the empty list's sentence does not show. */
export const selectHasLoaded = (snapshot: SearchSnapshot) => snapshot.context.paginator !== null;
export const selectCanNext = (snapshot: SearchSnapshot) => snapshot.can({ type: 'page.next' });
export const selectCanPrevious = (snapshot: SearchSnapshot) => snapshot.can({ type: 'page.previous' });
