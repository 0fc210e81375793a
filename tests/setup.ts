import '@testing-library/jest-dom/vitest';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, vi } from 'vitest';
import { messages as english } from '../src/locales/en.po';

// The app draws every text through Lingui (docs/i18n.md): a screen rendered on its own gets the provider the app
// puts at its root (src/i18n/LocaleProvider.tsx), in English unless a test activates another language.
i18n.loadAndActivate({ locale: 'en', messages: english });
vi.mock('@testing-library/react', async (importOriginal) => {
  const original = await importOriginal<typeof import('@testing-library/react')>();
  const wrap =
    (Inner?: (props: { children: ReactNode }) => ReactNode) =>
    ({ children }: { children: ReactNode }) =>
      createElement(I18nProvider, { i18n }, Inner ? createElement(Inner, null, children) : children);
  return {
    ...original,
    render: ((ui: Parameters<typeof original.render>[0], options?: Parameters<typeof original.render>[1]) =>
      original.render(ui, { ...options, wrapper: wrap(options?.wrapper as never) })) as typeof original.render,
    renderHook: ((hook: never, options?: { wrapper?: never }) =>
      original.renderHook(hook, { ...(options ?? {}), wrapper: wrap(options?.wrapper) } as never)) as typeof original.renderHook,
  };
});

// jsdom has no layout: the router's scroll restoration would only log "not implemented", and Ark's
// Select (floating-ui positioning, scrolling the highlighted option into view) never takes a choice.
window.scrollTo = () => {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
Element.prototype.scrollTo ??= function scrollTo() {};
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => cleanup());
