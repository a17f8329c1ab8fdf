import { compare, type DiagramEdge, type ResourceGraph } from './resource-graph.ts';

export interface Box {
  name: string;
  type: string;
  /** Centre. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Layout {
  width: number;
  height: number;
  boxes: Map<string, Box>;
}

const MARGIN = 24;
const BOX_HEIGHT = 42;
/** Wide enough for the legend. */
const MIN_WIDTH = 560;
/** Room under the drawing for the legend. */
export const LEGEND_HEIGHT = 36;

/**
 * Boxes on an ellipse, in an order that puts related Resources side by side
 * (each next box is the unplaced one most related to the last placed), so
 * most arrows are short and few cross. Same graph, same picture: every tie
 * is broken by name.
 */
export function layoutGraph(graph: ResourceGraph): Layout {
  const hub = hubOf(graph);
  const outer = { nodes: graph.nodes.filter((node) => node.name !== hub), edges: graph.edges.filter((e) => e.from !== hub && e.to !== hub) };
  const order = placementOrder(outer);
  const widths = new Map(graph.nodes.map((node) => [node.name, boxWidth(node.name, node.type)]));
  const widest = Math.max(120, ...widths.values());
  const n = order.length;
  const rx = n <= 1 && !hub ? 0 : Math.max(widest * 1.6, n * 34);
  const ry = n <= 1 && !hub ? 0 : Math.max(BOX_HEIGHT * 3.4, n * 24);
  const cx = MARGIN + widest / 2 + rx;
  const cy = MARGIN + BOX_HEIGHT / 2 + ry + 20;
  const boxes = new Map<string, Box>();
  const place = (name: string, x: number, y: number) => {
    const node = graph.nodes.find((candidate) => candidate.name === name)!;
    boxes.set(name, { name, type: node.type, x, y, width: widths.get(name)!, height: BOX_HEIGHT });
  };
  if (hub) place(hub, cx, cy);
  order.forEach((name, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(n, 1);
    place(name, cx + rx * Math.cos(angle), cy + ry * Math.sin(angle));
  });
  return { width: Math.max(MIN_WIDTH, Math.round(2 * cx)), height: Math.round(2 * cy + LEGEND_HEIGHT), boxes };
}

/**
 * The Resource related to at least half of the others, drawn in the middle so
 * its arrows radiate rather than cross the picture; none in a small graph or
 * one without such a centre.
 */
function hubOf(graph: ResourceGraph): string | undefined {
  if (graph.nodes.length < 5) return undefined;
  const neighbours = new Map<string, Set<string>>(graph.nodes.map((node) => [node.name, new Set()]));
  for (const { from, to } of graph.edges) {
    if (from === to) continue;
    neighbours.get(from)!.add(to);
    neighbours.get(to)!.add(from);
  }
  const [best] = [...neighbours].sort(([a, x], [b, y]) => y.size - x.size || compare(a, b));
  return best && best[1].size * 2 >= graph.nodes.length - 1 ? best[0] : undefined;
}

/** A width that holds the class name in bold and the type below it (no font metrics on the server: a generous average). */
function boxWidth(name: string, type: string): number {
  return Math.ceil(Math.max(name.length * 8.4, type.length * 7.2) + 24);
}

function placementOrder(graph: ResourceGraph): string[] {
  const weight = new Map<string, number>();
  const key = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
  const degree = new Map(graph.nodes.map((node) => [node.name, 0]));
  for (const edge of graph.edges.filter((e: DiagramEdge) => e.from !== e.to)) {
    weight.set(key(edge.from, edge.to), (weight.get(key(edge.from, edge.to)) ?? 0) + 1);
    degree.set(edge.from, degree.get(edge.from)! + 1);
    degree.set(edge.to, degree.get(edge.to)! + 1);
  }
  const unplaced = graph.nodes.map((node) => node.name);
  const byDegree = (a: string, b: string) => degree.get(b)! - degree.get(a)! || compare(a, b);
  const order: string[] = [];
  while (unplaced.length > 0) {
    const last = order[order.length - 1];
    const toLast = (name: string) => (last === undefined ? 0 : (weight.get(key(last, name)) ?? 0));
    const toPlaced = (name: string) => order.reduce((sum, placed) => sum + (weight.get(key(placed, name)) ?? 0), 0);
    unplaced.sort((a, b) => toLast(b) - toLast(a) || toPlaced(b) - toPlaced(a) || byDegree(a, b));
    order.push(unplaced.shift()!);
  }
  return untangle(order, graph.edges);
}

/** Most passes of pairwise swaps: each is O(n² · edges), so a large schema still lays out quickly. */
const MAX_PASSES = 12;

/** Swaps boxes while that shortens the arrows, counted in steps round the ellipse. */
function untangle(order: string[], edges: readonly DiagramEdge[]): string[] {
  const at = new Map(order.map((name, i) => [name, i]));
  const n = order.length;
  const cost = () =>
    edges.reduce((sum, { from, to }) => {
      const gap = Math.abs(at.get(from)! - at.get(to)!);
      return sum + Math.min(gap, n - gap);
    }, 0);
  let best = cost();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let improved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        swap(order, at, i, j);
        const tried = cost();
        if (tried < best) {
          best = tried;
          improved = true;
        } else swap(order, at, i, j);
      }
    }
    if (!improved) break;
  }
  return order;
}

function swap(order: string[], at: Map<string, number>, i: number, j: number): void {
  [order[i], order[j]] = [order[j]!, order[i]!];
  at.set(order[i]!, i);
  at.set(order[j]!, j);
}

/** Where the line from a box's centre towards `toward` leaves the box. */
export function boxExit(box: Box, toward: { x: number; y: number }): { x: number; y: number } {
  const dx = toward.x - box.x;
  const dy = toward.y - box.y;
  if (dx === 0 && dy === 0) return { x: box.x, y: box.y };
  const t = Math.min(dx === 0 ? Infinity : (box.width / 2 + 2) / Math.abs(dx), dy === 0 ? Infinity : (box.height / 2 + 2) / Math.abs(dy));
  return { x: box.x + dx * t, y: box.y + dy * t };
}
