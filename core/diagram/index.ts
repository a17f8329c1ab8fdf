export { resourceGraph, type DiagramEdge, type DiagramEdgeKind, type DiagramNode, type ResourceGraph } from './resource-graph.ts';
export { renderMermaid } from './mermaid.ts';
export { renderSvg } from './svg.ts';
