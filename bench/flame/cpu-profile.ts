/**
 * The parts of V8's `.cpuprofile` format (what `node --cpu-prof` and the
 * inspector's `Profiler.stop` produce) that the flame graph reads.
 */
export interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based, as V8 reports it; labels show it 1-based. */
  lineNumber: number;
  columnNumber: number;
  scriptId?: string;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
  hitCount?: number;
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** V8's pseudo-frames: not JavaScript, so they get no file and a grey colour. */
export const IDLE = '(idle)';
export const PROGRAM = '(program)';
export const GARBAGE_COLLECTOR = '(garbage collector)';
export const ROOT = '(root)';
const PSEUDO_FRAMES = new Set([IDLE, PROGRAM, GARBAGE_COLLECTOR, ROOT]);

export type Category = 'mural' | 'dependency' | 'node' | 'vm' | 'other';

export function frameKey(frame: CallFrame): string {
  return `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
}

/** Full paths make labels unreadable; the part after the project root or node_modules is enough to find the file. */
export function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) return path.slice(modules + '/node_modules/'.length);
  const project = /\/(core|plugins|commands|examples|bench|test|bin)\//.exec(path);
  return project ? path.slice(project.index + 1) : path;
}

export function frameLabel(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  return `${name} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

export function categoryOf(frame: CallFrame): Category {
  if (PSEUDO_FRAMES.has(frame.functionName) && !frame.url) return 'vm';
  const url = frame.url;
  // checked first: a dependency may have its own core/ or plugins/ folder
  if (url.includes('/node_modules/')) return 'dependency';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/core/') || url.includes('/plugins/')) return 'mural';
  return 'other';
}

/**
 * Microseconds each sample stands for. V8's timeDeltas[i] is the gap
 * *before* sample i, so the time a sample accounts for is the gap after it;
 * the last sample, with no successor, gets the median gap. Deltas can be
 * negative when V8 reorders ticks, which would give a frame negative width.
 * On a busy machine the sampling thread is sometimes not scheduled for tens
 * or hundreds of milliseconds, and the whole gap would land on the one frame
 * sampled before it: gaps are capped at OUTLIER_GAPS times the median.
 */
export function sampleWeights(profile: CpuProfile): number[] {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas;
  if (!deltas || deltas.length !== samples.length || samples.length < 2) return samples.map(() => 1);
  const gaps = samples.map((_, i) => Math.max(0, deltas[i + 1] ?? 0));
  const known = gaps.slice(0, -1).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)]!;
  gaps[gaps.length - 1] = median;
  return gaps.map((gap) => Math.min(gap, OUTLIER_GAPS * median));
}

const OUTLIER_GAPS = 10;
