import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, filesUnder, read } from './files.ts';

/**
 * A comment cites only what is in the repository (docs/README.md): a `docs/<file>.md "<Section>"` citation
 * names a file and a section that exist, any other `*.md` it names exists, and nothing sends the reader to a
 * document outside the repository ("the spec", "spec section 4", "issue 13"). Migrations are not read: they are
 * never edited once committed, and docs/README.md "Older references in the migrations" says how to read theirs.
 */

const TEXT = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|css|html|sql)$/;
const CONFIG_FILES = ['vite.config.ts', 'vitest.e2e.config.ts', 'panda.config.ts', 'postcss.config.cjs', 'index.html'];
const PRODUCT_DIRS = ['server', 'packages', 'src', 'contracts', 'domain', 'scripts'];

export function productFiles(): string[] {
  return [
    ...PRODUCT_DIRS.flatMap((dir) => filesUnder(dir, TEXT)).filter((file) => !file.startsWith('server/migrations/')),
    ...CONFIG_FILES.filter((file) => existsSync(join(ROOT, file))),
  ];
}

/** The comments of a source file, each joined into one line (a citation may wrap). */
export function commentsOf(source: string): string[] {
  const blocks = [...source.matchAll(/\/\*([\s\S]*?)\*\//g)].map((match) => match[1]!.replace(/\n\s*\*?\s?/g, ' '));
  const lines = [...source.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/(?:^|[\s;,(){}])\/\/(.*)$/gm)].map((match) => match[1]!);
  // Consecutive `//` lines are one comment.
  const joinedLines = lines.join('\n').replace(/\n/g, ' ');
  return [...blocks, ...(lines.length > 0 ? [joinedLines] : [])];
}

/** The source without its comments, line for line. */
const withoutComments = (source: string) =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[\s;,(){}])\/\/.*$/gm, '$1');

/** Titles a citation may name in a docs page: its headings, and the bold lead-ins of its paragraphs and items. */
export function sectionsOf(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((match) => match[1]!);
  const leads = [...markdown.matchAll(/^(?:\s*[-*]\s+)?\*\*([^*]+)\*\*/gm)].map((match) => match[1]!.replace(/[.:]$/, ''));
  // A heading's closing parenthesis may be left out: "Browse Offers at 100,000 offers" for "… (`market/offers/` list)".
  const short = headings.map((heading) => heading.replace(/\s*\([^)]*\)$/, ''));
  return new Set([...headings, ...short, ...leads].map((title) => title.trim()));
}

const OUTSIDE = [
  { pattern: /\bspec(?:ification)?(?:'s)?\b/i, why: 'cites the spec, which is not in the repository' },
  { pattern: /\bissues?\s+#?\d+/i, why: 'cites an issue, which is not in the repository' },
  { pattern: /(?<!RFC \d+ )\bsections?\s+\d+(?:\.\d+)*/i, why: 'cites a numbered section of a document outside the repository' },
];

/** The same, narrower, for the code's strings too (a chart's `description` is read in the Stately visualizer). */
const OUTSIDE_IN_STRINGS = [
  { pattern: /\bspec(?:'s)?\s+(?:sections?\s+)?\d|\bthe spec\b/i, why: 'cites the spec, which is not in the repository' },
  { pattern: /\bissues?\s+#?\d+/i, why: 'cites an issue, which is not in the repository' },
];

/** What is wrong with the citations in `file`'s text, one line per problem. */
export function citationProblems(file: string, source: string): string[] {
  const problems: string[] = [];
  const comments = commentsOf(source);
  for (const comment of comments) {
    for (const { pattern, why } of OUTSIDE) {
      const found = pattern.exec(comment);
      if (found) problems.push(`${file}: "${found[0]}" ${why}: …${comment.slice(Math.max(0, found.index - 40), found.index + 60).trim()}…`);
    }
  }
  // Files and sections, in comments and in strings alike (an OpenAPI description is read by integrators).
  const text = [source.replace(/\n\s*(?:\*(?!\/)|\/\/+)\s?/g, ' '), ...comments].join('\n');
  // Code lines (comments are read above): a comment line starts with `*`, `/*` or `//`.
  for (const line of withoutComments(source).split('\n')) {
    for (const { pattern, why } of OUTSIDE_IN_STRINGS) {
      const found = pattern.exec(line);
      if (found) problems.push(`${file}: "${found[0]}" ${why}: ${line.trim().slice(0, 120)}`);
    }
  }
  for (const match of text.matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.md)\b((?:\s*(?:,|and|or)?\s*"[^"\n]+")*)/g)) {
    const [, cited, quoted = ''] = match;
    const around = text.slice(Math.max(0, match.index - 12), match.index);
    if (/:\/\/\S*$/.test(around) || /\S\/$/.test(around)) continue; // part of a URL or a longer path
    const candidates = cited!.includes('/')
      ? [normalize(cited!), normalize(join(dirname(file), cited!))]
      : [normalize(join(dirname(file), cited!)), cited!];
    const path = candidates.find((candidate) => existsSync(join(ROOT, candidate)));
    if (!path) {
      problems.push(`${file}: cites ${cited}, which is not in the repository`);
      continue;
    }
    const sections = sectionsOf(read(path));
    for (const [, section] of quoted.matchAll(/"([^"]+)"/g)) {
      if (!sections.has(section!)) problems.push(`${file}: cites ${path} "${section}", a section ${path} does not have`);
    }
  }
  return [...new Set(problems)];
}

describe('citations (docs/README.md)', () => {
  it('reads the product files', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(300);
    for (const floor of ['server/src/', 'src/', 'contracts/', 'domain/', 'scripts/']) expect(files.some((file) => file.startsWith(floor))).toBe(true);
  });

  it('no product file cites a document outside the repository, or a docs/ file or section that does not exist', () => {
    const problems = productFiles().flatMap((file) => citationProblems(file, read(file)));
    expect(problems).toEqual([]);
  });
});

describe('the rule itself', () => {
  const rules = '# Rules\n\n## Trades\n\n**Releasing needs a second proof** (`x`). …\n\n- **Look-alike names.** …\n';

  it('takes headings and bold lead-ins for sections', () => {
    expect([...sectionsOf(rules)].sort()).toEqual(['Look-alike names', 'Releasing needs a second proof', 'Rules', 'Trades']);
  });

  it.each([
    ['/** Who is told (contract.md "Notifications"). */', 'contract.md'],
    ['/** Pusher frames (realtime.md 1.3). */', 'realtime.md'],
    ['// The toast (spec section 7).', 'cites the spec'],
    ["/** The spec's texts. */", 'cites the spec'],
    ['/** Additions (issue 13). */', 'cites an issue'],
    ['/**\n * The rule (docs/rules.md\n * "Trades", "No such section").\n */', 'docs/rules.md "No such section"'],
    ['/** The map (docs/nowhere.md). */', 'docs/nowhere.md'],
    ["  states: { idle: { description: 'Waits (spec section 9).' } },", 'cites the spec'],
  ])('refuses %s', (source, message) => {
    expect(citationProblems('server/src/x.ts', source).join('\n')).toContain(message);
  });

  it.each([
    '/** The rule (docs/rules.md "Trades", "Money"). */',
    '/**\n * Locks (docs/rules.md\n * "Trades").\n */',
    '// Web push urgency (RFC 8030 section 5.3).',
    '/** See README.md and https://example.com/x/contract.md. */',
    "const spec = 'x'; // the call's declaration",
  ])('allows %s', (source) => {
    expect(citationProblems('server/src/x.ts', source)).toEqual([]);
  });
});
