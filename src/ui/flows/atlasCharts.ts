import { chartsOf } from './charts.ts';

/**
 * The charts the atlas shows: every `*.machine.ts` of the web app's flows and of domain/ (the trade lifecycle the
 * server consults). Only the charts are imported, never their bindings (`*.actors.ts`), so nothing runs.
 */
export const atlasCharts = chartsOf({
  ...import.meta.glob<Record<string, unknown>>('../../machines/**/*.machine.ts', { eager: true }),
  ...import.meta.glob<Record<string, unknown>>('../../../domain/**/*.machine.ts', { eager: true }),
});
