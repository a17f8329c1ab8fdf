import { GARBAGE_COLLECTOR, PROGRAM, frameKey, frameLabel, type CallFrame } from './cpu-profile.ts';
import type { FlameNode } from './profile-tree.ts';

export type Layer =
  | 'Mural core'
  | 'Mural plugins'
  | 'Sequelize'
  | 'pg/sqlite3 drivers'
  | 'express/http'
  | 'other dependencies'
  | 'node internals'
  | 'app and bench code'
  | 'GC'
  | '(program)'
  | 'V8 builtins';

export const LAYERS: Layer[] = [
  'Mural core',
  'Mural plugins',
  'Sequelize',
  'pg/sqlite3 drivers',
  'express/http',
  'other dependencies',
  'node internals',
  'app and bench code',
  'GC',
  '(program)',
  'V8 builtins',
];

// Sequelize's own dependencies do Sequelize's work (lodash cloning options, moment parsing dates), so they count as Sequelize.
const SEQUELIZE = /^(sequelize|sequelize-pool|lodash|dottie|inflection|moment|moment-timezone|validator|uuid|wkx|retry-as-promised|toposort-class)$/;
const DRIVERS = /^(pg|pg-.*|pgpass|postgres-.*|sqlite3|bindings)$/;
// express 5 and the packages it is assembled from
const EXPRESS = /^(express|router|body-parser|finalhandler|accepts|negotiator|content-type|content-disposition|cookie|cookie-signature|encodeurl|escape-html|etag|fresh|http-errors|mime-types|mime-db|on-finished|parseurl|path-to-regexp|proxy-addr|qs|range-parser|raw-body|send|serve-static|statuses|type-is|vary|depd|is-promise)$/;
const HTTP_INTERNALS = /^node:(_http_|http$|https$)/;

function packageOf(url: string): string | undefined {
  const at = url.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const [scope, name] = url.slice(at + '/node_modules/'.length).split('/');
  return scope?.startsWith('@') ? `${scope}/${name}` : scope;
}

function dependencyLayer(name: string): Layer {
  if (SEQUELIZE.test(name)) return 'Sequelize';
  if (DRIVERS.test(name)) return 'pg/sqlite3 drivers';
  if (EXPRESS.test(name)) return 'express/http';
  return 'other dependencies';
}

/** The `sourceURL` prefix of the code core/render/record-writer.ts generates. */
const RECORD_WRITER = 'mural-record-writer/';

/**
 * The layer a frame's self time belongs to. A frame without a script (a V8
 * builtin such as JSON.stringify or a RegExp exec) did its caller's work,
 * so it takes the caller's layer: `inherited`.
 */
export function layerOf(frame: CallFrame, inherited: Layer | undefined): Layer {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === GARBAGE_COLLECTOR) return 'GC';
    if (functionName === PROGRAM) return '(program)';
    return inherited ?? 'V8 builtins';
  }
  const name = packageOf(url);
  if (name) return dependencyLayer(name);
  if (url.startsWith('node:')) return HTTP_INTERNALS.test(url) ? 'express/http' : 'node internals';
  // the record writers core/render/record-writer.ts generates name themselves so
  if (url.includes('/core/') || url.startsWith(RECORD_WRITER)) return 'Mural core';
  if (url.includes('/plugins/')) return 'Mural plugins';
  return 'app and bench code';
}

/** Self microseconds per layer, summing to the tree's total. */
export function layerTimes(root: FlameNode): Map<Layer, number> {
  const times = new Map<Layer, number>(LAYERS.map((layer) => [layer, 0]));
  const walk = (node: FlameNode, inherited: Layer | undefined): void => {
    const layer = layerOf(node.frame, inherited);
    times.set(layer, times.get(layer)! + node.self);
    for (const child of node.children.values()) walk(child, layer);
  };
  for (const child of root.children.values()) walk(child, undefined);
  return times;
}

export interface SelfTime {
  label: string;
  self: number;
}

/** Self time per function, wherever it was called from: the merged tree splits a function by caller. */
export function topSelfTimes(root: FlameNode, count: number): SelfTime[] {
  const byFunction = new Map<string, SelfTime>();
  const walk = (node: FlameNode): void => {
    const key = frameKey(node.frame);
    const entry = byFunction.get(key) ?? { label: frameLabel(node.frame), self: 0 };
    entry.self += node.self;
    byFunction.set(key, entry);
    for (const child of node.children.values()) walk(child);
  };
  for (const child of root.children.values()) walk(child);
  return [...byFunction.values()].sort((a, b) => b.self - a.self).slice(0, count);
}
