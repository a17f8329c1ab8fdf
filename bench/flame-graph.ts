import type { CpuProfile } from './flame/cpu-profile.ts';
import { buildFlameTree } from './flame/profile-tree.ts';
import { renderSvg } from './flame/svg-render.ts';

export type { CallFrame, CpuProfile, ProfileNode } from './flame/cpu-profile.ts';
export { buildFlameTree, type FlameNode } from './flame/profile-tree.ts';
export { layerTimes, topSelfTimes, LAYERS, type Layer } from './flame/layers.ts';

export interface FlameGraphOptions {
  title?: string;
  /** Default true: in a request's profile, idle is the event loop waiting on the database, not CPU. */
  dropIdle?: boolean;
  /** Fraction of the root's width below which a frame (and what it called) is left out; default 0.002. */
  minFraction?: number;
  /** Keep only stacks with a frame of exactly this function name. */
  focus?: string;
  /** Pixels; default 1200. */
  width?: number;
}

/**
 * A standalone SVG flame graph of a V8 `.cpuprofile`: root at the bottom,
 * each frame as wide as the time sampled in it and in what it called, one
 * frame per distinct stack path.
 */
export function flameGraphSvg(profile: CpuProfile, options: FlameGraphOptions = {}): string {
  const root = buildFlameTree(profile, { dropIdle: options.dropIdle ?? true, focus: options.focus });
  const focused = options.focus ? ` (stacks through ${options.focus})` : '';
  return renderSvg(root, {
    title: `${options.title ?? 'CPU flame graph'}${focused}`,
    minFraction: options.minFraction ?? 0.002,
    width: options.width ?? 1200,
  });
}
