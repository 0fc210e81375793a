/**
 * A page of this web app, as a notification's `link` or the login page's `redirect` names it: a same-origin
 * path (`/chat?channel=…`, `/wallets/transactions`, `/settings/security`). Branded, so only `appPathOf` makes one and the
 * composition root never navigates to a string it has not checked.
 */
export type AppPath = string & { readonly __appPath: unique symbol };

/** Any origin will do: only whether the link stays on it matters. */
const PROBE_ORIGIN = 'https://peerex.invalid';

/**
 * The link as a path of this app, or null when it is none: not starting with a single `/`, or leaving the
 * origin once a browser resolves it (`//host`, `/\host`, a scheme, control characters). What the server
 * stores is checked here again because a notification's text reaches the page from the network, and a
`redirect` comes from whoever made the link.
 */
export function appPathOf(link: string | null | undefined): AppPath | null {
  if (!link || !link.startsWith('/') || link.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(link)) return null;
  let url: URL;
  try {
    url = new URL(link, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}` as AppPath;
}
