import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';

/**
 * The production build's stack traces (server/src/infra/stack-traces.ts): built the way `npm run build:server`
 * builds the server, run by plain `node` without `--enable-source-maps`, a trace names the TypeScript file and line
 * where the error was made, for a caught error's `stack` and for the report of an uncaught one.
 */
const FIXTURE = fileURLToPath(new URL('./fixtures/stack-trace-fixture.ts', import.meta.url));
const lineOf = (text: string) => readFileSync(FIXTURE, 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;

let dir: string;
let start: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'peerex-stack-'));
  start = join(dir, 'main.js');
  await buildServer(start, FIXTURE);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stack traces of the built server', () => {
  it("name the TypeScript file, line and function where the error was made, read from the map at the first trace", () => {
    const printed = execFileSync(process.execPath, [start], { encoding: 'utf8' });
    expect(printed).toContain('Error: made in failHere');
    expect(printed).toContain(`at failHere (${FIXTURE}:${lineOf("new Error('made in failHere')")}:`);
    expect(printed, 'no frame names the bundle itself').not.toContain('main.bundle.js');
  });

  it('map the report of an uncaught error too', () => {
    const run = spawnSync(process.execPath, [start, 'uncaught'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Error: thrown by new Thrower');
    expect(run.stderr).toContain(`at new Thrower (${FIXTURE}:${lineOf("new Error('thrown by new Thrower')")}:`);
  });

  it('without a map beside the bundle, still print the bundle\'s own lines', () => {
    rmSync(join(dir, 'main.bundle.js.map'));
    const printed = execFileSync(process.execPath, [start], { encoding: 'utf8' });
    expect(printed).toContain('Error: made in failHere');
    expect(printed).toMatch(/at failHere \(file:\/\/.*main\.bundle\.js:\d+:\d+\)/);
  });
});
