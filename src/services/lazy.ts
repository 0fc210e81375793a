/** A service whose every call answers a promise, so it can arrive after the first call is made. */
type AsyncService = Record<string, (...args: never[]) => Promise<unknown>>;

/**
 * A service whose code — and the contract schemas it parses answers with — loads on its first call instead of
 * with the first page. /login's first visit has a budget (bench/bundle-size.ts); the marketplace's, wallets',
 * chat's and moderation's services are only ever called from signed-in pages, which wait for data anyway.
 */
export function lazyService<S extends AsyncService>(load: () => Promise<S>): S {
  let loaded: Promise<S> | undefined;
  return new Proxy({} as S, {
    get: (_target, name) => {
      if (typeof name !== 'string') return undefined;
      return (...args: never[]) => (loaded ??= load()).then((service) => service[name]!(...args));
    },
  });
}
