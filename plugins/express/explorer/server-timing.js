import { h } from './dom.js';

/**
 * The `Server-Timing` header of an answer (`muralRouter({ serverTiming })`),
 * read into `{ name, duration, description }` metrics in the order sent.
 * Only `dur` and `desc` are read; a metric without them keeps its name.
 */
export function parseServerTiming(header) {
  if (!header) return [];
  const metrics = [];
  // a metric is a name, then `;param=value` pairs whose values may be quoted strings holding `,` or `;`
  const metric = /\s*([^;,\s]+)((?:\s*;\s*[^=;,\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)\s*(?:,|$)/gy;
  for (let match = metric.exec(header); match && match[0] !== ''; match = metric.exec(header)) {
    const params = {};
    for (const [, key, quoted, bare] of match[2].matchAll(/;\s*([^=;,\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g)) {
      params[key.toLowerCase()] = quoted === undefined ? bare : quoted.replace(/\\(.)/g, '$1');
    }
    const duration = Number(params.dur);
    metrics.push({ name: match[1], duration: Number.isFinite(duration) ? duration : undefined, description: params.desc ?? '' });
  }
  return metrics;
}

/** A table of the metrics: what each measured and how long it took. */
export function timingsView(metrics) {
  return h('table', { className: 'timings' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'metric'), h('th', { scope: 'col' }, 'what'), h('th', { scope: 'col' }, 'ms'))),
    h('tbody', {}, metrics.map((m) => h('tr', {}, h('td', {}, m.name), h('td', {}, m.description), h('td', { className: 'number' }, m.duration === undefined ? '' : m.duration.toFixed(2))))));
}
