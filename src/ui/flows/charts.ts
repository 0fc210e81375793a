import type { AnyStateMachine } from 'xstate';

/** One chart of the product: a machine exported by a `*.machine.ts` file, with the file it lives in. */
export type Chart = { id: string; file: string; machine: AnyStateMachine; description: string };

const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' && value !== null && 'root' in value && 'config' in value && typeof (value as { provide?: unknown }).provide === 'function';

/**
 * Every machine exported by the given modules, keyed by their path as `import.meta.glob` gives them (or as the
 * export script builds them): the atlas and docs/flows list exactly what the folders hold, so a new chart cannot
 * be left out. A chart without a description is refused: it is what a reader of the atlas sees first.
 */
export function chartsOf(modules: Record<string, Record<string, unknown>>): Chart[] {
  const charts: Chart[] = [];
  for (const [path, module] of Object.entries(modules)) {
    const file = path.replace(/^(\.\.\/)+/, '').replace(/^machines\//, 'src/machines/').replace(/^\/+/, '');
    for (const value of Object.values(module)) {
      if (!isMachine(value)) continue;
      const description = value.root.description;
      if (!description) throw new Error(`${file}: the chart "${value.id}" has no description`);
      charts.push({ id: value.id, file, machine: value, description });
    }
  }
  return charts.sort((a, b) => a.id.localeCompare(b.id));
}
