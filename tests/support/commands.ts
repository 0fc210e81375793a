import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * One of the operator's commands (`server/src/scripts/<name>.ts`, what `npm run` starts) run as its own process
 * from the repository, with `env` and PATH only: answers its exit code and everything it printed.
 */
export function runScript(script: string, args: readonly string[], env: Record<string, string>): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `server/src/scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
