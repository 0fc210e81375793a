import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.ts';

/** server/src: every `*.call.ts` below it declares calls. */
export const SERVER_SOURCE = join(ROOT, 'server', 'src');

/** The call files under `root`, relative to it, sorted: adding a call is adding one such file. */
export function callFileNames(root = SERVER_SOURCE): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.call\.ts$/.test(file))
    .sort();
}
