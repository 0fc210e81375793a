/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react()],
  // MARKETING_URL (the logo's link) is read at build time, like any VITE_ variable.
  envPrefix: ['VITE_', 'MARKETING_URL'],
  resolve: { alias: { 'styled-system': new URL('./styled-system', import.meta.url).pathname } },
  server: { port: 5173, proxy: { '/api': apiTarget, '/app': { target: apiTarget, ws: true } } },
  preview: { proxy: { '/api': apiTarget } },
  build: { outDir: 'dist', sourcemap: true },
  test: {
    globals: true,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Server suites each boot their own database; more workers than cores only starves PGlite.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          setupFiles: ['tests/setup.ts'],
          include: ['tests/{machines,model,ui,routes,services}/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: { name: 'server', environment: 'node', include: ['tests/server/**/*.test.ts'] },
      },
      {
        extends: true,
        // The rules both sides share (domain/): pure logic, no browser, no database.
        test: { name: 'domain', environment: 'node', include: ['tests/domain/**/*.test.ts'] },
      },
    ],
  },
});
