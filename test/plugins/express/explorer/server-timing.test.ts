import test from 'ava';

/** How the explorer reads a Server-Timing header into the rows it shows. */

type Metric = { name: string; duration?: number; description: string };
type Module = { parseServerTiming(header: string | null): Metric[] };

// a computed specifier: the module has no declarations, and is imported untyped on purpose
const specifier = new URL('../../../../plugins/express/explorer/server-timing.js', import.meta.url).href;
const { parseServerTiming } = (await import(specifier)) as Module;

test('the header muralRouter sends: each metric with its duration and description, in order', (t) => {
  t.deepEqual(parseServerTiming('db;dur=1.20;desc="employees resolve, 20 records", db;dur=0.35;desc="employees count", total;dur=3.07;desc="Mural"'), [
    { name: 'db', duration: 1.2, description: 'employees resolve, 20 records' },
    { name: 'db', duration: 0.35, description: 'employees count' },
    { name: 'total', duration: 3.07, description: 'Mural' },
  ]);
});

test('any server\'s: unquoted and escaped descriptions, metrics without a duration or a description, spaces', (t) => {
  t.deepEqual(parseServerTiming('cache;desc=hit , miss, edge ; dur = 12 ; desc="a \\"quoted\\" one; really"'), [
    { name: 'cache', duration: undefined, description: 'hit' },
    { name: 'miss', duration: undefined, description: '' },
    { name: 'edge', duration: 12, description: 'a "quoted" one; really' },
  ]);
  t.deepEqual(parseServerTiming(null), []);
  t.deepEqual(parseServerTiming(''), []);
});
