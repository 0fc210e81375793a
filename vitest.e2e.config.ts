import { defineConfig } from 'vitest/config';

/** Browser tests: Debian's Chromium drives the built product (`npm run build` first). */
export default defineConfig({
  resolve: { alias: { 'styled-system': new URL('./styled-system', import.meta.url).pathname } },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    setupFiles: ['tests/e2e/setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Each file boots its own product and browser; one at a time keeps 2 cores from starving them.
    fileParallelism: false,
  },
});
