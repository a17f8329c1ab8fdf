import test from 'ava';
import { flameGraphSvg, layerTimes, buildFlameTree, topSelfTimes, type CallFrame, type CpuProfile, type ProfileNode } from '../../bench/flame-graph.ts';
import { fitLabel } from '../../bench/flame/svg-render.ts';

const frame = (functionName: string, url = '', lineNumber = 0): CallFrame => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '0' });
const main = frame('main', 'file:///srv/mural/core/main.ts', 9);
const handle = frame('handle', 'file:///srv/mural/node_modules/express/lib/router.js', 40);
const query = frame('query', 'file:///srv/mural/plugins/sequelize/query.ts', 2);
const odd = frame('<a&b>', 'node:internal/odd', 0);

/**
 * (root) ─┬─ main ─┬─ handle          3 samples
 *         │        ├─ query ── <a&b>  2 samples
 *         │        └─ (self)          2 samples
 *         ├─ main ── handle           1 sample: the same path under other V8 ids, to be merged
 *         ├─ (idle)                   5 samples
 *         └─ (program)                2 samples
 * Non-idle: 10 samples of 1 ms; main 8, handle 4, query 2, <a&b> 2, (program) 2.
 */
function syntheticProfile(): CpuProfile {
  const nodes: ProfileNode[] = [
    { id: 1, callFrame: frame('(root)'), children: [2, 7, 3, 9] },
    { id: 2, callFrame: main, children: [4, 5] },
    { id: 4, callFrame: handle },
    { id: 5, callFrame: query, children: [6] },
    { id: 6, callFrame: odd },
    { id: 7, callFrame: main, children: [8] },
    { id: 8, callFrame: handle },
    { id: 3, callFrame: frame('(idle)') },
    { id: 9, callFrame: frame('(program)') },
  ];
  const counts: [number, number][] = [[4, 3], [8, 1], [6, 2], [2, 2], [3, 5], [9, 2]];
  // interleaved, as a real profile's samples are
  const samples = counts.flatMap(([id, n]) => Array.from({ length: n }, () => id)).sort((a, b) => (a * 7) % 5 - (b * 7) % 5);
  return { nodes, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas: samples.map(() => 1000) };
}

interface Rect {
  title: string;
  x: number;
  y: number;
  width: number;
  fill: string;
  text: string;
}

function rects(svg: string): Rect[] {
  const pattern = /<g><title>([^<]*)<\/title><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)" height="\d+" fill="([^"]+)" rx="2"\/>(?:<text [^>]*>([^<]*)<\/text>)?<\/g>/g;
  return [...svg.matchAll(pattern)].map((m) => ({ title: m[1]!, x: Number(m[2]), y: Number(m[3]), width: Number(m[4]), fill: m[5]!, text: m[6] ?? '' }));
}

function rectsNamed(svg: string, name: string): Rect[] {
  return rects(svg).filter((rect) => rect.title.startsWith(`${name} `));
}

/** Enough of XML well-formedness for generated markup: balanced tags, only escaped & and < in text. */
function assertWellFormed(svg: string): string[] {
  const problems: string[] = [];
  const body = svg.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  for (const [tag, closing, name, selfClosing] of body.matchAll(/<(\/?)([a-zA-Z]+)\b[^<>]*?(\/?)>/g)) {
    if (closing) {
      if (stack.pop() !== name) problems.push(`unbalanced ${tag}`);
    } else if (!selfClosing) stack.push(name!);
  }
  if (stack.length) problems.push(`unclosed ${stack.join(', ')}`);
  const text = body.replace(/<[^<>]*>/g, '');
  if (/[<>]/.test(text)) problems.push('raw < or > in text');
  if (/&(?!#\d+;|[a-z]+;)/.test(body)) problems.push('raw & in markup');
  return problems;
}

const near = (actual: number, expected: number) => Math.abs(actual - expected) < 0.05;

test('a standalone SVG root, well formed', (t) => {
  const svg = flameGraphSvg(syntheticProfile(), { title: 'synthetic <profile>' });
  t.true(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="'));
  t.true(svg.trimEnd().endsWith('</svg>'));
  t.regex(svg, /viewBox="0 0 1200 \d+"/);
  t.deepEqual(assertWellFormed(svg), []);
  t.true(svg.includes('synthetic &#60;profile&#62;'));
});

test('widths are proportional to inclusive time, the root at the bottom', (t) => {
  const svg = flameGraphSvg(syntheticProfile());
  const [all] = rectsNamed(svg, 'all');
  t.truthy(all);
  const full = all!.width;
  t.true(near(full, 1180));
  t.true(near(rectsNamed(svg, 'main')[0]!.width, full * 0.8));
  t.true(near(rectsNamed(svg, 'handle')[0]!.width, full * 0.4));
  t.true(near(rectsNamed(svg, 'query')[0]!.width, full * 0.2));
  t.true(near(rectsNamed(svg, '&#60;a&#38;b&#62;')[0]!.width, full * 0.2));
  t.true(near(rectsNamed(svg, '(program)')[0]!.width, full * 0.2));
  const ys = rects(svg).map((rect) => rect.y);
  t.is(all!.y, Math.max(...ys));
  t.true(rectsNamed(svg, 'main')[0]!.y < all!.y);
  t.true(rectsNamed(svg, 'handle')[0]!.y < rectsNamed(svg, 'main')[0]!.y);
});

test('identical stack paths are merged into one frame, whatever their V8 node ids', (t) => {
  const svg = flameGraphSvg(syntheticProfile());
  t.is(rectsNamed(svg, 'main').length, 1);
  const handles = rectsNamed(svg, 'handle');
  t.is(handles.length, 1);
  t.regex(handles[0]!.title, /^handle express\/lib\/router\.js:41 \(4\.0 ms, 40\.00%\)$/);
  t.regex(rectsNamed(svg, 'main')[0]!.title, /\(8\.0 ms, 80\.00%\)$/);
});

test('idle samples are dropped by default and kept on request', (t) => {
  const dropped = flameGraphSvg(syntheticProfile());
  t.false(dropped.includes('(idle)'));
  const kept = flameGraphSvg(syntheticProfile(), { dropIdle: false });
  t.is(rectsNamed(kept, '(idle)').length, 1);
  t.regex(rectsNamed(kept, 'main')[0]!.title, /\(8\.0 ms, 53\.33%\)$/);
});

test('focus keeps only the stacks through the named function', (t) => {
  const svg = flameGraphSvg(syntheticProfile(), { focus: 'query' });
  const names = rects(svg).map((rect) => rect.title.split(' ')[0]);
  t.deepEqual(names.sort(), ['&#60;a&#38;b&#62;', 'all', 'main', 'query']);
  t.regex(rectsNamed(svg, 'query')[0]!.title, /\(2\.0 ms, 100\.00%\)$/);
  t.true(near(rectsNamed(svg, 'query')[0]!.width, 1180));
});

test('frames narrower than minFraction are left out with what they called', (t) => {
  const svg = flameGraphSvg(syntheticProfile(), { minFraction: 0.3 });
  t.is(rectsNamed(svg, 'query').length, 0);
  t.is(rectsNamed(svg, '&#60;a&#38;b&#62;').length, 0);
  t.is(rectsNamed(svg, '(program)').length, 0);
  t.is(rectsNamed(svg, 'handle').length, 1);
});

test('labels are "function file:line", escaped, and cut to the rectangle', (t) => {
  const svg = flameGraphSvg(syntheticProfile());
  t.false(svg.includes('<a&b>'));
  const odd = rectsNamed(svg, '&#60;a&#38;b&#62;')[0]!;
  t.true(odd.title.startsWith('&#60;a&#38;b&#62; node:internal/odd:1 ('));
  t.is(rectsNamed(svg, 'main')[0]!.text, 'main core/main.ts:10');
  const narrow = flameGraphSvg(syntheticProfile(), { width: 160 });
  const label = rectsNamed(narrow, 'query')[0]!.text;
  t.true(label === '' || (label.endsWith('…') && 'query plugins/sequelize/query.ts:3'.startsWith(label.slice(0, -1))));
  t.is(fitLabel('abcdefghij', 6 + 6.6 * 5), 'abcd…');
  t.is(fitLabel('abcdefghij', 10), '');
});

test('colour by category: Mural, node_modules, node internals, V8 grey', (t) => {
  const svg = flameGraphSvg(syntheticProfile());
  t.regex(rectsNamed(svg, 'main')[0]!.fill, /^hsl\(18,/);
  t.regex(rectsNamed(svg, 'query')[0]!.fill, /^hsl\(18,/);
  t.regex(rectsNamed(svg, 'handle')[0]!.fill, /^hsl\(210,/);
  t.regex(rectsNamed(svg, '&#60;a&#38;b&#62;')[0]!.fill, /^hsl\(125,/);
  t.regex(rectsNamed(svg, '(program)')[0]!.fill, /^hsl\(0,0%,/);
});

test('self time per layer and per function', (t) => {
  const tree = buildFlameTree(syntheticProfile());
  const layers = layerTimes(tree);
  t.is(layers.get('Mural core'), 2000);
  t.is(layers.get('express/http'), 4000);
  t.is(layers.get('node internals'), 2000);
  t.is(layers.get('(program)'), 2000);
  t.is(layers.get('Mural plugins'), 0);
  t.deepEqual(topSelfTimes(tree, 2), [
    { label: 'handle express/lib/router.js:41', self: 4000 },
    { label: 'main core/main.ts:10', self: 2000 },
  ]);
});

test('a sample is weighted by the gap after it, a stalled sampler\'s long gap capped', (t) => {
  const profile = syntheticProfile();
  const deltas = profile.timeDeltas!;
  const main = profile.samples!.indexOf(2);
  // a 500 ms stall right after one of main's own samples: capped at 10 ms, ten times the median
  deltas[main + 1] = 500_000;
  const tree = buildFlameTree(profile);
  t.is(tree.total, 19_000);
  t.is(layerTimes(tree).get('Mural core'), 11_000);
});

test('the record writers core generates count as Mural core, by the name they give themselves', (t) => {
  const writer = frame('writeRecord', 'mural-record-writer/employees.js', 8);
  const nodes: ProfileNode[] = [
    { id: 1, callFrame: frame('(root)'), children: [2] },
    { id: 2, callFrame: writer },
  ];
  const tree = buildFlameTree({ nodes, startTime: 0, endTime: 3000, samples: [2, 2, 2], timeDeltas: [1000, 1000, 1000] });
  t.is(layerTimes(tree).get('Mural core'), 3000);
  t.is(layerTimes(tree).get('app and bench code'), 0);
});
