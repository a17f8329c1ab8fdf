import type { DiagramEdge, ResourceGraph } from './resource-graph.ts';
import { boxExit, layoutGraph, LEGEND_HEIGHT, type Box, type Layout } from './svg-layout.ts';

const PLAIN = '#475467';
const GUARDED = '#b42318';
const VARIANT = '#6941c6';

/**
 * The graph as a standalone SVG image: a box per Resource (class name and
 * type), a curved arrow per relationship labelled with its name and `1` or
 * `*`; guarded relationships dashed and red, polymorphic children purple.
 * Presentation attributes only, no `<style>` or script, so it renders the
 * same in an `<img>`, a file viewer or inline; its `<desc>` lists every
 * relationship for screen readers.
 */
export function renderSvg(graph: ResourceGraph): string {
  const layout = layoutGraph(graph);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-labelledby="diagram-title diagram-desc" font-family="system-ui, sans-serif">`,
    `<title id="diagram-title">Relationships of ${graph.nodes.length} Resources</title>`,
    `<desc id="diagram-desc">${escape(graph.edges.map(sentence).join('; ') || 'No relationships')}</desc>`,
    '<defs>',
    ...[PLAIN, GUARDED, VARIANT].map((color, i) => `<marker id="arrow-${i}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="${color}"/></marker>`),
    '</defs>',
    `<rect width="${layout.width}" height="${layout.height}" fill="#ffffff"/>`,
  ];
  const seen = new Map<string, number>();
  for (const edge of graph.edges) {
    const pair = `${edge.from}\u0000${edge.to}`;
    const rank = seen.get(pair) ?? 0;
    seen.set(pair, rank + 1);
    parts.push(drawEdge(edge, layout, rank));
  }
  for (const box of layout.boxes.values()) parts.push(drawBox(box));
  parts.push(legend(layout), '</svg>');
  return `${parts.join('\n')}\n`;
}

function drawEdge(edge: DiagramEdge, layout: Layout, rank: number): string {
  const from = layout.boxes.get(edge.from)!;
  const to = layout.boxes.get(edge.to)!;
  const color = edge.kind === 'variant' ? VARIANT : edge.guarded ? GUARDED : PLAIN;
  const marker = `url(#arrow-${edge.kind === 'variant' ? 2 : edge.guarded ? 1 : 0})`;
  const dash = edge.guarded ? ' stroke-dasharray="6 4"' : '';
  let d: string;
  let label: { x: number; y: number };
  if (from === to) {
    // a loop over the box's top right corner
    const x = from.x + from.width / 2 - 12 - rank * 10;
    const y = from.y - from.height / 2;
    d = `M${n(x - 16)} ${n(y)} C${n(x - 16)} ${n(y - 36 - rank * 12)} ${n(x + 26)} ${n(y - 36 - rank * 12)} ${n(x + 10)} ${n(y)}`;
    label = { x: x + 4, y: y - 30 - rank * 12 };
  } else {
    // the two directions of a pair bend to opposite sides; more edges of one direction bend further
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const length = Math.hypot(dx, dy);
    const bend = 22 + rank * 26;
    const control = { x: (from.x + to.x) / 2 - (dy / length) * bend, y: (from.y + to.y) / 2 + (dx / length) * bend };
    const start = boxExit(from, control);
    const end = boxExit(to, control);
    d = `M${n(start.x)} ${n(start.y)} Q${n(control.x)} ${n(control.y)} ${n(end.x)} ${n(end.y)}`;
    // nearer the Resource that declares it, so the labels of a pair's two directions stay apart
    label = at(start, control, end, 0.3 + 0.2 * (rank % 3));
  }
  const text = edge.kind === 'variant' ? 'variant' : `${edge.name} ${edge.single ? '1' : '*'}`;
  return [
    `<g data-edge="${escape(`${edge.from}.${edge.name}`)}"${edge.guarded ? ' data-guarded="true"' : ''}>`,
    `<title>${escape(sentence(edge))}</title>`,
    `<path d="${d}" fill="none" stroke="${color}" stroke-width="${edge.kind === 'variant' ? 2 : 1.4}"${dash} marker-end="${marker}"/>`,
    `<text x="${n(label.x)}" y="${n(label.y + 4)}" text-anchor="middle" font-size="11" fill="${color}" stroke="#ffffff" stroke-width="4" paint-order="stroke">${escape(text)}${edge.guarded ? ' (guarded)' : ''}</text>`,
    '</g>',
  ].join('');
}

/** The point at `t` along a quadratic curve. */
function at(p0: { x: number; y: number }, c: { x: number; y: number }, p2: { x: number; y: number }, t: number): { x: number; y: number } {
  const u = 1 - t;
  return { x: u * u * p0.x + 2 * u * t * c.x + t * t * p2.x, y: u * u * p0.y + 2 * u * t * c.y + t * t * p2.y };
}

function drawBox(box: Box): string {
  const left = box.x - box.width / 2;
  const top = box.y - box.height / 2;
  return [
    `<g data-resource="${escape(box.name)}">`,
    `<rect x="${n(left)}" y="${n(top)}" width="${box.width}" height="${box.height}" rx="6" fill="#f9fafb" stroke="#344054" stroke-width="1.2"/>`,
    `<text x="${n(box.x)}" y="${n(top + 17)}" text-anchor="middle" font-size="13" font-weight="600" fill="#101828">${escape(box.name)}</text>`,
    `<text x="${n(box.x)}" y="${n(top + 33)}" text-anchor="middle" font-size="12" fill="#475467">${escape(box.type)}</text>`,
    '</g>',
  ].join('');
}

function legend(layout: Layout): string {
  const y = layout.height - LEGEND_HEIGHT / 2;
  const item = (x: number, color: string, dash: string, text: string) =>
    `<line x1="${x}" y1="${y}" x2="${x + 28}" y2="${y}" stroke="${color}" stroke-width="1.6"${dash}/><text x="${x + 34}" y="${y + 4}" font-size="11" fill="#344054">${text}</text>`;
  return [
    '<g data-legend="true">',
    item(16, PLAIN, '', 'relationship (1 to-one, * to-many)'),
    item(246, GUARDED, ' stroke-dasharray="6 4"', 'guarded relationship'),
    item(410, VARIANT, '', 'polymorphic child'),
    '</g>',
  ].join('');
}

function sentence(edge: DiagramEdge): string {
  if (edge.kind === 'variant') return `${edge.to} is a variant of ${edge.from}`;
  return `${edge.from}.${edge.name}: ${edge.kind} ${edge.to}${edge.guarded ? ' (guarded)' : ''}`;
}

/** One decimal: enough for a drawing, and stable across platforms. */
function n(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
