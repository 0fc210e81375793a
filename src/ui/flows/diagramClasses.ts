import { css } from 'styled-system/css';
import type { DiagramClasses } from './FlowDiagram.tsx';

/** The diagram in the app: Panda semantic tokens, so light and dark follow the product's theme. */
export const atlasDiagramClasses: DiagramClasses = {
  svg: css({ display: 'block', maxWidth: 'none', overflow: 'visible', '& g:focus': { outline: 'none' } }),
  frame: css({ fill: 'bg.canvas', stroke: 'fg.subtle', strokeWidth: '1.5' }),
  state: css({
    fill: 'bg.surface',
    stroke: 'fg.muted',
    strokeWidth: '1.2',
    'g:focus-visible > &, g[data-selected=true] > &': { stroke: 'accent', strokeWidth: '3' },
  }),
  region: css({ strokeDasharray: '6 4', fill: 'bg.muted' }),
  stateActive: css({ fill: 'accent.subtle!', stroke: 'accent!', strokeWidth: '3!' }),
  stateName: css({ fill: 'fg', fontWeight: '600' }),
  stateLine: css({ fill: 'fg.muted' }),
  initial: css({ fill: 'fg' }),
  transition: css({
    cursor: 'default',
    '&:focus-visible path, &[data-selected=true] path': { stroke: 'accent', strokeWidth: '2.5' },
    '&:focus-visible rect, &[data-selected=true] rect': { stroke: 'accent', strokeWidth: '2' },
  }),
  transitionPath: css({ fill: 'none', stroke: 'fg.muted', strokeWidth: '1.3' }),
  label: css({ fill: 'bg.surface', stroke: 'border', strokeWidth: '1' }),
  labelText: css({ fill: 'fg' }),
  arrow: css({ fill: 'fg.muted' }),
};
