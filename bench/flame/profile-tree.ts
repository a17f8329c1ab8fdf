import { IDLE, ROOT, frameKey, sampleWeights, type CallFrame, type CpuProfile, type ProfileNode } from './cpu-profile.ts';

/** One frame of the merged tree: every stack with this path from the root, whatever V8 node ids it had. */
export interface FlameNode {
  frame: CallFrame;
  /** Microseconds sampled in this frame or anything it called. */
  total: number;
  /** Microseconds sampled with this frame on top of the stack. */
  self: number;
  children: Map<string, FlameNode>;
}

export interface TreeOptions {
  /** Idle time is the event loop waiting (here: on the database), not CPU spent. */
  dropIdle?: boolean;
  /** Keep only stacks with a frame of exactly this function name. */
  focus?: string;
}

/** Each V8 node's stack from the outermost frame, without V8's `(root)`. */
function stacksById(profile: CpuProfile): Map<number, CallFrame[]> {
  const byId = new Map<number, ProfileNode>(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stacks = new Map<number, CallFrame[]>();
  const stackOf = (id: number): CallFrame[] => {
    const known = stacks.get(id);
    if (known) return known;
    const node = byId.get(id);
    if (!node) throw new Error(`cpuprofile: sample of unknown node ${id}`);
    const parent = parentOf.get(id);
    const above = parent === undefined ? [] : stackOf(parent);
    const stack = parent === undefined && node.callFrame.functionName === ROOT ? [] : [...above, node.callFrame];
    stacks.set(id, stack);
    return stack;
  };
  for (const node of profile.nodes) stackOf(node.id);
  return stacks;
}

/** Sampled microseconds per V8 node id, summed once so paths are walked per node, not per sample. */
function timeById(profile: CpuProfile): Map<number, number> {
  const weights = sampleWeights(profile);
  const time = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => time.set(id, (time.get(id) ?? 0) + weights[i]!));
  return time;
}

export function emptyNode(frame: CallFrame): FlameNode {
  return { frame, total: 0, self: 0, children: new Map() };
}

function addStack(root: FlameNode, stack: CallFrame[], time: number): void {
  let node = root;
  node.total += time;
  for (const frame of stack) {
    const key = frameKey(frame);
    let child = node.children.get(key);
    if (!child) node.children.set(key, (child = emptyNode(frame)));
    child.total += time;
    node = child;
  }
  node.self += time;
}

function keeps(stack: CallFrame[], options: TreeOptions): boolean {
  const top = stack[stack.length - 1];
  if ((options.dropIdle ?? true) && top?.functionName === IDLE && !top.url) return false;
  return options.focus === undefined || stack.some((frame) => frame.functionName === options.focus);
}

/** Merges the profile's stacks into one tree whose root stands for all the kept samples. */
export function buildFlameTree(profile: CpuProfile, options: TreeOptions = {}): FlameNode {
  const root = emptyNode({ functionName: 'all', url: '', lineNumber: -1, columnNumber: -1 });
  const stacks = stacksById(profile);
  for (const [id, time] of timeById(profile)) {
    const stack = stacks.get(id)!;
    if (keeps(stack, options)) addStack(root, stack, time);
  }
  return root;
}
