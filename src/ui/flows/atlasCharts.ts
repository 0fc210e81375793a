import { chartsOf } from './charts.ts';

/**
 * The charts the atlas shows: every `*.machine.ts` of the web app's flows and of domain/ (the trade lifecycle the
 * server consults). Only the charts are imported, never their bindings (`*.actors.ts`), so nothing runs.
 */
// The `?atlas` query makes each chart a module of the atlas's own chunk: shared with the pages, the charts would be
// split out of the pages' chunks into chunks of their own, and /login's first visit would fetch more (and more bytes).
export const atlasCharts = chartsOf({
  ...import.meta.glob<Record<string, unknown>>('../../machines/**/*.machine.ts', { eager: true, query: '?atlas' }),
  ...import.meta.glob<Record<string, unknown>>('../../../domain/**/*.machine.ts', { eager: true, query: '?atlas' }),
});
