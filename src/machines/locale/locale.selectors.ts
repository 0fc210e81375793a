import type { SnapshotFrom } from 'xstate';
import type { localeMachine } from './locale.machine.ts';

type LocaleSnapshot = SnapshotFrom<typeof localeMachine>;

/** The language the picker shows as chosen: the one asked for, even while its catalog loads. */
export const selectChosenLocale = (snapshot: LocaleSnapshot) => snapshot.context.locale;
/** The language the page is in (null before the first catalog). */
export const selectShownLocale = (snapshot: LocaleSnapshot) => snapshot.context.shown;
export const selectIsSwitching = (snapshot: LocaleSnapshot) => snapshot.matches('loading');
