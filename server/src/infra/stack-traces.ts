import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces of the production build that name our TypeScript files and lines, with the source map read at the
 * first stack trace instead of at start. Node's `--enable-source-maps` does the same mapping but parses the whole map
 * as the bundle loads: a sixth of a restart on Node 24 (bench/README.md "Restart to ready"). Installed by the
 * build's start script (scripts/build-server.ts) before the bundle loads; every `error.stack` (the log's, and
 * Node's own report of an uncaught error) goes through it.
 *
 * A frame of the bundle that the map knows reads `at name (server/src/file.ts:line:column)`, the path absolute as
 * Node's would be; a package's frame (the map keeps only our sources) and every other file's stay as V8 wrote them.
 */
export function mapStackTraces(bundleUrl: string): void {
  const bundlePath = fileURLToPath(bundleUrl);
  let map: SourceMap | null | undefined;
  const sourceMap = () => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${bundlePath}.map`, 'utf8')));
      } catch {
        // No map beside the bundle (deleted, or a build without one): the bundle's own lines, as without the flag.
        map = null;
      }
    }
    return map;
  };
  const mapped = (frame: NodeJS.CallSite): string => {
    const file = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if ((file !== bundleUrl && file !== bundlePath) || line === null || column === null) return `${frame}`;
    const entry = sourceMap()?.findEntry(line - 1, column - 1);
    if (!entry || !('originalSource' in entry)) return `${frame}`;
    // esbuild writes each source relative to the map, which lies beside the bundle.
    const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : resolve(dirname(bundlePath), entry.originalSource);
    const place = `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    const name = frame.getFunctionName() ?? frame.getMethodName();
    const async = frame.isAsync() ? 'async ' : '';
    if (frame.isConstructor()) return `new ${name ?? '<anonymous>'} (${place})`;
    return name ? `${async}${name} (${place})` : `${async}${place}`;
  };
  Error.prepareStackTrace = (error, frames) => {
    const head = error instanceof Error ? Error.prototype.toString.call(error) : String(error);
    return [head, ...frames.map((frame) => `    at ${mapped(frame)}`)].join('\n');
  };
}
