import { findSourceMap } from 'node:module';
import type { CallFrame, CpuProfile } from './cpu-profile.ts';

/**
 * tsx compiles each TypeScript file to one line, so V8 reports every
 * function of it at line 1. The inline source maps tsx registers give the
 * TypeScript position back, but only inside the process that loaded the
 * files: a profile must be remapped before it leaves it.
 */
export function remapToSources(profile: CpuProfile): CpuProfile {
  return { ...profile, nodes: profile.nodes.map((node) => ({ ...node, callFrame: remapFrame(node.callFrame) })) };
}

function remapFrame(frame: CallFrame): CallFrame {
  if (!frame.url.startsWith('file:') || frame.lineNumber < 0) return frame;
  const entry = findSourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalLine' in entry)) return frame;
  return { ...frame, lineNumber: entry.originalLine, columnNumber: entry.originalColumn };
}
