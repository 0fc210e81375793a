import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root, where `package.json` is. */
export const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', '.tsbuild', 'styled-system', '.git']);

/** Every file under `dir` (repository-relative) whose name matches `pattern`, or none when `dir` does not exist. */
export function filesUnder(dir: string, pattern: RegExp): string[] {
  const absolute = join(ROOT, dir);
  if (!existsSync(absolute)) return [];
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (pattern.test(entry.name)) found.push(relative(ROOT, path));
    }
  };
  walk(absolute);
  return found.sort();
}

export const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** TypeScript sources (not the generated route tree's declarations, which import nothing of ours). */
export const SOURCE = /\.(?:ts|tsx|mts|cts)$/;
