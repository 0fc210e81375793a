import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SOURCE, filesUnder, read } from './files.ts';

/**
 * The import rules of docs/boundaries.md that the TypeScript projects cannot express, and the ones they do,
 * read from the files themselves: a crossing fails here even where the compiler would let it through (a file
 * of packages/ and one of server/ share a project; a package's insides are in the same project as its entry).
 */

/** The packages each shared floor may import: docs/boundaries.md "contracts/" and "domain/" say why. */
const ALLOWED_PACKAGES: Record<'contracts' | 'domain', readonly string[]> = {
  contracts: ['zod', 'zod/mini'],
  domain: ['zod', 'zod/mini', 'xstate', 'decimal.js'],
};

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Removes comments, so an example in a comment is not taken for an import. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every module specifier a file names: static imports and re-exports, side-effect imports, `import()`. */
export function specifiersOf(source: string): string[] {
  const code = withoutComments(source);
  const found = [
    ...code.matchAll(/\b(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return [...new Set(found.map((match) => match[1]!))];
}

const isRelative = (specifier: string) => specifier.startsWith('.');
/** A relative specifier as a repository-relative path, query (`?raw`) dropped. */
const target = (file: string, specifier: string) => normalize(join(dirname(file), specifier.split('?')[0]!));
const within = (path: string, ...dirs: string[]) => dirs.some((dir) => path === dir || path.startsWith(`${dir}/`));

/** The public entry of `packages/<name>/`: what its package.json exports, or its index.ts. */
export function packageEntry(name: string): string[] {
  const dir = `packages/${name}`;
  const manifest = join(ROOT, dir, 'package.json');
  const named: string[] = [];
  if (existsSync(manifest)) {
    const { exports, main, types } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      exports?: string | Record<string, unknown>;
      main?: string;
      types?: string;
    };
    const root = typeof exports === 'string' ? exports : exports?.['.'];
    const rootFiles = typeof root === 'string' ? [root] : root && typeof root === 'object' ? Object.values(root) : [];
    named.push(...[...rootFiles, main, types].filter((file): file is string => typeof file === 'string'));
  }
  return [...named, 'index.ts', 'src/index.ts'].map((file) => normalize(join(dir, file)));
}

/** What is wrong with `file` importing `specifier`, or undefined when the floors allow it. */
export function crossing(file: string, specifier: string): string | undefined {
  const floor = file.split('/')[0]!;
  if (!isRelative(specifier)) {
    if (floor === 'contracts' || floor === 'domain') {
      return ALLOWED_PACKAGES[floor].includes(specifier) ? undefined : `${floor}/ imports the package ${specifier}`;
    }
    if (floor === 'src' && NODE_BUILTINS.has(specifier)) return `the web app imports Node's ${specifier}`;
    return undefined;
  }
  const to = target(file, specifier);
  switch (floor) {
    case 'contracts':
      return within(to, 'contracts') ? undefined : `contracts/ imports ${to}`;
    case 'domain':
      return within(to, 'domain', 'contracts') ? undefined : `domain/ imports ${to}`;
    case 'src':
      return within(to, 'src', 'contracts', 'domain') ? undefined : `the web app imports ${to}`;
    case 'server': {
      if (within(to, 'src', 'tests', 'bench', 'scripts')) return `the server imports ${to}`;
      if (!within(to, 'packages')) return undefined;
      const name = to.split('/')[1]!;
      return packageEntry(name).includes(to) ? undefined : `the server imports ${to}, inside packages/${name}/ past its entry`;
    }
    case 'packages': {
      const own = file.split('/').slice(0, 2).join('/');
      return within(to, own) ? undefined : `${own}/ imports ${to}, outside its own folder`;
    }
    default:
      return undefined;
  }
}

const PRODUCT_FLOORS = ['contracts', 'domain', 'src', 'server', 'packages'] as const;

describe('import boundaries (docs/boundaries.md)', () => {
  it.each(PRODUCT_FLOORS)('%s/ imports only what its floor allows', (floor) => {
    const crossings = filesUnder(floor, SOURCE).flatMap((file) =>
      specifiersOf(read(file)).flatMap((specifier) => {
        const wrong = crossing(file, specifier);
        return wrong ? [`${file}: '${specifier}': ${wrong}`] : [];
      }),
    );
    expect(crossings).toEqual([]);
  });

  it('reads the product floors it checks', () => {
    for (const floor of ['contracts', 'domain', 'src', 'server'] as const) expect(filesUnder(floor, SOURCE).length).toBeGreaterThan(0);
  });
});

describe('the rule itself', () => {
  it('finds every form of import, and none in comments', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type {\n  B,\n} from '../b.ts';",
      "export * from './c.ts';",
      "import './d.css';",
      "const e = await import('./e.ts');",
      "// import { f } from './f.ts';",
      "/** import { g } from './g.ts'; */",
    ].join('\n');
    expect(specifiersOf(source).sort()).toEqual(['../b.ts', './a.ts', './c.ts', './d.css', './e.ts']);
  });

  it.each([
    ['server/src/app.ts', '../../src/services/api.ts', 'the server imports src/services/api.ts'],
    ['server/src/app.ts', '../../packages/realtime/src/protocol.ts', 'past its entry'],
    ['src/main.tsx', '../server/src/config.ts', 'the web app imports server/src/config.ts'],
    ['src/main.tsx', 'node:fs', "Node's node:fs"],
    ['domain/money.ts', 'react', 'domain/ imports the package react'],
    ['domain/money.ts', '../src/services/api.ts', 'domain/ imports src/services/api.ts'],
    ['contracts/trade.ts', 'xstate', 'contracts/ imports the package xstate'],
    ['contracts/trade.ts', '../domain/money.ts', 'contracts/ imports domain/money.ts'],
    ['packages/realtime/index.ts', '../../server/src/config.ts', 'outside its own folder'],
  ])('refuses %s importing %s', (file, specifier, message) => {
    expect(crossing(file, specifier)).toContain(message);
  });

  it.each([
    ['server/src/app.ts', '../../packages/realtime/index.ts'],
    ['server/src/app.ts', '../../domain/money.ts'],
    ['src/main.tsx', '../contracts/index.ts'],
    ['domain/money.ts', 'decimal.js'],
    ['domain/tradeLifecycle/tradeLifecycle.machine.ts', '../../contracts/trade.ts'],
    ['packages/realtime/src/server.ts', './protocol.ts'],
  ])('allows %s importing %s', (file, specifier) => {
    expect(crossing(file, specifier)).toBeUndefined();
  });
});
