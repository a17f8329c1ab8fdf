import type { ResourceGraph } from './resource-graph.ts';

/**
 * The graph as a Mermaid flowchart (GitHub and most wikis draw it): a box per
 * Resource, an arrow per relationship labelled with its name and kind; a
 * guarded relationship is a dotted arrow whose label says so, a polymorphic
 * parent's children hang from it by thick arrows.
 */
export function renderMermaid(graph: ResourceGraph): string {
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) lines.push(`  ${id(node.name)}["${label(node.name)}<br/>${label(node.type)}"]`);
  for (const edge of graph.edges) {
    const text = edge.kind === 'variant' ? 'variant' : `${edge.name} (${edge.kind}${edge.guarded ? ', guarded' : ''})`;
    const arrow = edge.kind === 'variant' ? '==>' : edge.guarded ? '-.->' : '-->';
    lines.push(`  ${id(edge.from)} ${arrow}|"${label(text)}"| ${id(edge.to)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Class names are identifiers already; anything else a Mermaid id cannot hold becomes `_`. */
function id(name: string): string {
  return `r_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Mermaid's entity codes for what would end a quoted label or open markup. */
function label(text: string): string {
  return text.replace(/[#"<>]/g, (c) => `#${c.charCodeAt(0)};`);
}
