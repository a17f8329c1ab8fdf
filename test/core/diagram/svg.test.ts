import test from 'ava';
import { buildSchema, renderSvg, resourceGraph, type ResourceGraph } from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

const graph = resourceGraph(buildSchema(Object.values(gadgetApi())));
const svg = renderSvg(graph);

/** The box of each Resource: its rectangle's x, y, width and height. */
function boxes(text: string): Map<string, { x: number; y: number; width: number; height: number }> {
  const found = new Map<string, { x: number; y: number; width: number; height: number }>();
  for (const match of text.matchAll(/<g data-resource="(\w+)"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)) {
    found.set(match[1]!, { x: Number(match[2]), y: Number(match[3]), width: Number(match[4]), height: Number(match[5]) });
  }
  return found;
}

test('a standalone image: the SVG namespace, a size, a title and a description listing every relationship', (t) => {
  t.regex(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+" role="img"/);
  t.regex(svg, /<title id="diagram-title">Relationships of 6 Resources<\/title>/);
  t.regex(svg, /<desc id="diagram-desc">[^<]*GadgetResource\.shapes: has_many ShapeResource \(guarded\)[^<]*<\/desc>/);
  t.true(svg.trimEnd().endsWith('</svg>'));
  t.notRegex(svg, /<script|<style|on\w+=/, 'presentation attributes only');
});

test('a box per Resource, inside the picture, none overlapping another', (t) => {
  const drawn = boxes(svg);
  t.deepEqual([...drawn.keys()].sort(), graph.nodes.map((n) => n.name));
  const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)!.map(Number);
  const all = [...drawn.values()];
  for (const box of all) t.true(box.x >= 0 && box.y >= 0 && box.x + box.width <= width! && box.y + box.height <= height!);
  for (const [i, a] of all.entries()) {
    for (const b of all.slice(i + 1)) {
      t.false(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height, 'boxes overlap');
    }
  }
});

test('an arrow per edge; guarded ones dashed and labelled, the others not', (t) => {
  t.is(svg.match(/<g data-edge=/g)?.length, graph.edges.length);
  const guarded = [...svg.matchAll(/<g data-edge="([^"]+)" data-guarded="true">.*?<\/g>/g)];
  t.deepEqual(guarded.map((m) => m[1]), ['GadgetResource.shapes']);
  t.regex(guarded[0]![0], /stroke-dasharray="6 4"/);
  t.regex(guarded[0]![0], />shapes \* \(guarded\)<\/text>/);
  t.is(svg.match(/<path d="[^"]*" fill="none"[^>]*stroke-dasharray/g)?.length, 1);
  t.regex(svg, /<g data-edge="GadgetResource\.maker">.*>maker 1<\/text>/);
});

test('the same graph always draws the same bytes', (t) => {
  t.is(renderSvg(resourceGraph(buildSchema(Object.values(gadgetApi())))), svg);
});

test('text from names is escaped; an empty graph is still an image', (t) => {
  const odd: ResourceGraph = { nodes: [{ name: 'A<b>', type: 'x&y' }], edges: [] };
  const drawn = renderSvg(odd);
  t.regex(drawn, /A&#60;b&#62;/);
  t.regex(drawn, /x&#38;y/);
  t.regex(renderSvg({ nodes: [], edges: [] }), /<desc id="diagram-desc">No relationships<\/desc>/);
});
