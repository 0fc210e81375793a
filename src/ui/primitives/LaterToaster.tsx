import { useSyncExternalStore, type ComponentType } from 'react';
import { translateOptional, translateSentence } from '../../i18n/sentences.ts';
import type { Notice } from '../../machines/shared/notify.ts';

/**
 * The toaster (Toaster.tsx: its store, and Ark's and Zag's toast parts that show it), loaded with the first toast a
 * page asks for. Most first visits show none: in the first page's download it was a few kilobytes more of every
 * visit's (bench/bundle-size.ts), and mounted with the first page its group started in the first commit's effects
 * and drew itself at once there (flushSync), in one of a signed-in page's longest tasks on a phone.
 */
let loading: Promise<typeof import('./Toaster.tsx')> | undefined;
let LoadedToaster: ComponentType | null = null;
const loaded = new Set<() => void>();

const loadToaster = () =>
  (loading ??= import('./Toaster.tsx').then((module) => {
    LoadedToaster = module.Toaster;
    for (const listener of loaded) listener();
    return module;
  }));

/**
 * Shows `notice` as a toast, once the toaster is here (at once after the first): in the visitor's language when its
 * sentences are ones the app knows (src/i18n/sentences.ts), as the chart or the server wrote them otherwise.
 */
export const showToast = ({ title, description, type = 'info' }: Notice) =>
  void loadToaster().then(({ toaster }) =>
    toaster.create({ title: translateSentence(title), description: translateOptional(description), type }),
  );

const current = () => LoadedToaster;
const subscribe = (listener: () => void) => {
  loaded.add(listener);
  return () => void loaded.delete(listener);
};

/** Where the toasts show: nothing until the first has been asked for, then the toaster, which shows it. */
export function LaterToaster() {
  // A page drawn at build time (src/prerender.tsx) has none: no toast was asked for there.
  const Toaster = useSyncExternalStore(subscribe, current, () => null);
  return Toaster ? <Toaster /> : null;
}
