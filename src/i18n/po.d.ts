/** A catalog, compiled by @lingui/vite-plugin when imported (src/i18n/catalogs.ts). */
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
