import { categoryOf, frameLabel, type Category } from './cpu-profile.ts';
import type { FlameNode } from './profile-tree.ts';

export interface RenderOptions {
  title: string;
  /** Frames narrower than this fraction of the root are left out: they would be unreadable slivers and bloat the file. */
  minFraction: number;
  width: number;
}

interface Placed {
  node: FlameNode;
  depth: number;
  x: number;
  width: number;
}

const FRAME_HEIGHT = 17;
const FONT_SIZE = 11;
// monospace, so the label's width can be known without measuring text
const CHAR_WIDTH = FONT_SIZE * 0.6;
const MARGIN = 10;
const HEADER = 44;

const HUES: Record<Category, { hue: number; saturation: number }> = {
  mural: { hue: 18, saturation: 80 },
  dependency: { hue: 210, saturation: 60 },
  node: { hue: 125, saturation: 45 },
  vm: { hue: 0, saturation: 0 },
  other: { hue: 275, saturation: 40 },
};

const LEGEND: [Category, string][] = [
  ['mural', 'Mural (core/, plugins/)'],
  ['dependency', 'node_modules'],
  ['node', 'node: internals'],
  ['other', 'app, bench, V8 builtins'],
  ['vm', '(program), (garbage collector)'],
];

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A per-name shade, so neighbouring frames of one category stay tellable apart, and stay the same colour across runs. */
function shade(name: string): number {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  return (hash % 1000) / 1000;
}

function colour(category: Category, name: string): string {
  const { hue, saturation } = HUES[category];
  const lightness = category === 'vm' ? 70 + shade(name) * 10 : 55 + shade(name) * 15;
  return `hsl(${hue},${saturation}%,${lightness.toFixed(0)}%)`;
}

/** Children side by side from their parent's left edge, in name order as in classic flame graphs: x carries no time meaning. */
function layout(root: FlameNode, options: RenderOptions): Placed[] {
  const scale = (options.width - 2 * MARGIN) / root.total;
  const placed: Placed[] = [];
  const place = (node: FlameNode, depth: number, x: number): void => {
    placed.push({ node, depth, x, width: node.total * scale });
    const children = [...node.children.values()]
      .filter((child) => child.total / root.total >= options.minFraction)
      .sort((a, b) => frameLabel(a.frame).localeCompare(frameLabel(b.frame)));
    let left = x;
    for (const child of children) {
      place(child, depth + 1, left);
      left += child.total * scale;
    }
  };
  place(root, 0, MARGIN);
  return placed;
}

export function fitLabel(label: string, width: number): string {
  const room = Math.floor((width - 6) / CHAR_WIDTH);
  if (room < 3) return '';
  return label.length <= room ? label : `${label.slice(0, room - 1)}…`;
}

function frameSvg(frame: Placed, rootTotal: number, bottom: number): string {
  const { node } = frame;
  const isRoot = frame.depth === 0;
  const label = isRoot ? 'all' : frameLabel(node.frame);
  const percent = ((100 * node.total) / rootTotal).toFixed(2);
  const tooltip = `${label} (${(node.total / 1000).toFixed(1)} ms, ${percent}%)`;
  const y = bottom - (frame.depth + 1) * FRAME_HEIGHT;
  const fill = isRoot ? 'hsl(0,0%,82%)' : colour(categoryOf(node.frame), node.frame.functionName);
  const text = fitLabel(label, frame.width);
  return (
    `<g><title>${escapeXml(tooltip)}</title>` +
    `<rect x="${frame.x.toFixed(2)}" y="${y}" width="${frame.width.toFixed(2)}" height="${FRAME_HEIGHT - 1}" fill="${fill}" rx="2"/>` +
    (text ? `<text x="${(frame.x + 3).toFixed(2)}" y="${y + FRAME_HEIGHT - 5}">${escapeXml(text)}</text>` : '') +
    '</g>'
  );
}

function legendSvg(): string {
  return LEGEND.map(([category, name], i) => {
    const x = MARGIN + i * 200;
    return `<rect x="${x}" y="30" width="10" height="10" fill="${colour(category, '')}"/><text x="${x + 14}" y="39">${escapeXml(name)}</text>`;
  }).join('');
}

export function renderSvg(root: FlameNode, options: RenderOptions): string {
  const placed = root.total > 0 ? layout(root, options) : [];
  const depth = placed.reduce((max, frame) => Math.max(max, frame.depth), 0);
  const height = HEADER + (depth + 1) * FRAME_HEIGHT + MARGIN;
  const bottom = height - MARGIN;
  const frames = placed.map((frame) => frameSvg(frame, root.total, bottom));
  const empty = placed.length === 0 ? `<text x="${MARGIN}" y="${bottom - 4}">no samples</text>` : '';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${options.width}" height="${height}" viewBox="0 0 ${options.width} ${height}" font-family="Menlo,Consolas,'DejaVu Sans Mono',monospace" font-size="${FONT_SIZE}">`,
    `<rect width="100%" height="100%" fill="#fdfdf8"/>`,
    `<text x="${options.width / 2}" y="20" font-size="15" text-anchor="middle">${escapeXml(options.title)}</text>`,
    legendSvg(),
    ...frames,
    empty,
    '</svg>',
    '',
  ].join('\n');
}
