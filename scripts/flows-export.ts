/**
 * Writes docs/flows/: each chart of src/machines/ and domain/ as an SVG and a Markdown page, and an index.
 * `--check` compares instead of writing and exits 1 when a file is stale, missing or left over.
 * Run: npm run flows:export [-- --check]
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chartsOf } from '../src/ui/flows/charts.ts';
import { flowDocs } from '../src/ui/flows/flowDocs.tsx';

export const FLOWS_DIR = 'docs/flows';
const CHART_FOLDERS = ['src/machines', 'domain'];

export function chartFiles(root = process.cwd()): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.machine.ts')) files.push(relative(root, path));
    }
  };
  for (const folder of CHART_FOLDERS) walk(join(root, folder));
  return files;
}

export async function expectedFlowDocs(root = process.cwd()) {
  const modules: Record<string, Record<string, unknown>> = {};
  for (const file of chartFiles(root)) modules[file] = (await import(join(root, file))) as Record<string, unknown>;
  return flowDocs(chartsOf(modules));
}

/** What differs between the committed docs/flows and what the charts make now. */
export async function staleFlowDocs(root = process.cwd()): Promise<string[]> {
  const expected = await expectedFlowDocs(root);
  const dir = join(root, FLOWS_DIR);
  const present = new Set(statSafe(dir) ? readdirSync(dir) : []);
  const problems: string[] = [];
  for (const [name, content] of expected) {
    if (!present.has(name)) problems.push(`${FLOWS_DIR}/${name} is missing`);
    else if (readFileSync(join(dir, name), 'utf8') !== content) problems.push(`${FLOWS_DIR}/${name} is out of date`);
  }
  for (const name of present) if (!expected.has(name)) problems.push(`${FLOWS_DIR}/${name} belongs to no chart`);
  return problems;
}

function statSafe(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const problems = await staleFlowDocs();
    for (const problem of problems) console.error(problem);
    if (problems.length > 0) {
      console.error('Run `npm run flows:export` and commit docs/flows.');
      process.exit(1);
    }
    console.log('docs/flows is up to date.');
  } else {
    const files = await expectedFlowDocs();
    rmSync(FLOWS_DIR, { recursive: true, force: true });
    mkdirSync(FLOWS_DIR, { recursive: true });
    for (const [name, content] of files) writeFileSync(join(FLOWS_DIR, name), content);
    console.log(`Wrote ${files.size} files to ${FLOWS_DIR}/.`);
  }
}
