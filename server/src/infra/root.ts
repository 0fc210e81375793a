import { fileURLToPath } from 'node:url';

/**
 * Set by the production build (scripts/build-server.ts) to the way from the bundle's own directory to the
 * repository's root (`../../` for `server/dist/main.bundle.js`). Every module of the bundle shares the bundle's
 * `import.meta.url`, so a path written relative to a source file would point elsewhere from the build.
 */
declare const PEEREX_BUNDLE_TO_ROOT: string | undefined;

/**
 * The repository's root, with a trailing slash: where `package.json` and `server/migrations/` are, whether the
 * server runs from its source (`node --import tsx server/src/main.ts`) or from the build (`server/dist/main.js`).
 * Files the server reads at run time are named from here, never from `import.meta.url` in their own module.
 */
export const ROOT = fileURLToPath(
  new URL(typeof PEEREX_BUNDLE_TO_ROOT === 'string' ? PEEREX_BUNDLE_TO_ROOT : '../../../', import.meta.url),
);

/** Whether this is the production build (one bundle) rather than the TypeScript source. */
export const BUNDLED = typeof PEEREX_BUNDLE_TO_ROOT === 'string';
