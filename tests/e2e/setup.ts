import { afterEach, expect } from 'vitest';
import { takeCspViolations } from './support.ts';

// The product's pages carry a strict Content-Security-Policy; a page that breaks it would break for real users.
afterEach(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
});
