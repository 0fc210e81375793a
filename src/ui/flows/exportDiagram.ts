import type { DiagramClasses } from './FlowDiagram.tsx';

/** The same parts as plain class names, for the exported SVG files, which carry their own stylesheet. */
export const exportDiagramClasses: DiagramClasses = {
  svg: 'chart',
  frame: 'frame',
  state: 'state',
  region: 'region',
  stateActive: 'active',
  stateName: 'name',
  stateLine: 'line',
  initial: 'initial',
  transition: 'transition',
  transitionPath: 'edge',
  label: 'label',
  labelText: 'label-text',
  arrow: 'arrow',
};

/** The exported SVG's stylesheet: the product's slate and indigo, light and dark as the reader's system is. */
export const exportDiagramStyle = `
.frame { fill: #f8fafc; stroke: #64748b; stroke-width: 1.5 }
.state { fill: #ffffff; stroke: #475569; stroke-width: 1.2 }
.region { fill: #f1f5f9; stroke-dasharray: 6 4 }
.name { fill: #0f172a; font-weight: 600 }
.line { fill: #475569 }
.initial { fill: #0f172a }
.edge { fill: none; stroke: #475569; stroke-width: 1.3 }
.label { fill: #ffffff; stroke: #e2e8f0 }
.label-text { fill: #0f172a }
.arrow { fill: #475569 }
@media (prefers-color-scheme: dark) {
  .frame { fill: #020617; stroke: #64748b }
  .state { fill: #0f172a; stroke: #94a3b8 }
  .region { fill: #1e293b }
  .name, .initial, .label-text { fill: #f1f5f9 }
  .line { fill: #94a3b8 }
  .edge { stroke: #94a3b8 }
  .arrow { fill: #94a3b8 }
  .label { fill: #0f172a; stroke: #334155 }
}
`;
