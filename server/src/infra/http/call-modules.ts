import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callFileNames, SERVER_SOURCE } from './call-files.ts';

/**
 * Each call file under `root` with its module, in `callFileNames` order. The production build
 * (scripts/build-server.ts) puts in this module's place one that imports the same files statically, found by
 * the same `callFileNames` when it builds, since a bundle has no source files left to look for.
 */
export async function importCallFiles(root = SERVER_SOURCE): Promise<[file: string, module: Record<string, unknown>][]> {
  const modules: [string, Record<string, unknown>][] = [];
  for (const file of callFileNames(root)) {
    modules.push([file, (await import(pathToFileURL(join(root, file)).href)) as Record<string, unknown>]);
  }
  return modules;
}
