import { findSourceMap } from 'node:module';
import type { CallFrame, CpuProfile } from './cpu-profile.ts';

/**
 * tsx compiles each TypeScript file to one line, so V8 reports every
 * function of it at line 1, and the compiled build (`bench/compile.ts`,
 * run with `--enable-source-maps`) puts each package's sources in one
 * file. The source maps Node registers give the TypeScript file and
 * position back, but only inside the process that loaded the files: a
 * profile must be remapped before it leaves it.
 */
export function remapToSources(profile: CpuProfile): CpuProfile {
  return { ...profile, nodes: profile.nodes.map((node) => ({ ...node, callFrame: remapFrame(node.callFrame) })) };
}

function remapFrame(frame: CallFrame): CallFrame {
  // ES modules are named by URL, CommonJS ones (the build's) by path
  if (!(frame.url.startsWith('file:') || frame.url.startsWith('/')) || frame.lineNumber < 0) return frame;
  const entry = findSourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalLine' in entry)) return frame;
  // a bundle's frame names the source it came from (tsx's maps name the file itself)
  const url = entry.originalSource || frame.url;
  return { ...frame, url, lineNumber: entry.originalLine, columnNumber: entry.originalColumn };
}
