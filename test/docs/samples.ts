/**
 * How each code sample of the docs is run: the claim its `<!-- sample: … -->`
 * marker (or, without one, its content) makes, and the TypeScript samples
 * assembled into their contexts (test/docs/contexts/).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { shellSteps, tokenAssignment, type DocBlock } from '../support/doc-samples.ts';
import { repo } from '../support/packed-app.ts';

export type Claim =
  /** `sh` of curl commands against the example API (the default for such blocks). */
  | { kind: 'http' }
  /** The JSON answer of the curl command just above (its block's last). */
  | { kind: 'answer' }
  /** `sh` of `npx mural … --config examples/employee-directory/mural.config.ts` commands (the default for such blocks). */
  | { kind: 'cli' }
  /** TypeScript run in a context of test/docs/contexts/. */
  | { kind: 'ts'; context: string }
  /** The front page's server and its curl commands. */
  | { kind: 'front-page' }
  /** Followed step by step by test/package/packed-tarball.test.ts (test/support/readme-steps.ts). */
  | { kind: 'packed-tarball' }
  /** Exercised by another test file, named. */
  | { kind: 'covered'; test: string }
  | { kind: 'not-run'; reason: string };

export const CONTEXTS = join(repo, 'test/docs/contexts');
const EXAMPLE_CONFIG = '--config examples/employee-directory/mural.config.ts';

/** What runs `block`, or why nothing does; a string when the block makes no claim the tests accept. */
export function claimOf(block: DocBlock): Claim | string {
  const marker = block.sample;
  if (marker !== undefined) {
    const notRun = /^not run\s*[—-]\s*(.+)$/s.exec(marker);
    if (notRun) return notRun[1]!.trim().length >= 10 ? { kind: 'not-run', reason: notRun[1]!.trim() } : 'say why it is not run';
    const covered = /^covered by (\S+)\s*[—-]\s*(.+)$/s.exec(marker);
    if (covered) return existsSync(join(repo, covered[1]!)) ? { kind: 'covered', test: covered[1]! } : `no test file ${covered[1]}`;
    const ts = /^ts:([\w-]+)$/.exec(marker);
    if (ts) {
      if (!['ts', 'js'].includes(block.language)) return `ts:${ts[1]} on a ${block.language} block`;
      return existsSync(join(CONTEXTS, `${ts[1]}.ts.txt`)) ? { kind: 'ts', context: ts[1]! } : `no context test/docs/contexts/${ts[1]}.ts.txt`;
    }
    if (marker === 'answer') return block.language === 'json' ? { kind: 'answer' } : 'an answer is a json block';
    if (marker === 'front-page' || marker === 'packed-tarball' || marker === 'http' || marker === 'cli') return { kind: marker };
    return `unknown sample marker "${marker}"`;
  }
  if (block.language === 'sh') {
    const steps = shellSteps(block);
    // curl commands, and the variables holding the tokens they send
    if (steps.some((step) => step.words[0] === 'curl') && steps.every((step) => step.words[0] === 'curl' || tokenAssignment(step.text))) return { kind: 'http' };
    if (steps.length > 0 && steps.every((step) => step.words[0] === 'npx' && step.words[1] === 'mural' && step.text.includes(EXAMPLE_CONFIG))) return { kind: 'cli' };
  }
  return 'no test runs it: mark it (<!-- sample: … -->, see docs/testing.md)';
}

/** Where assembled samples are written: a folder Git ignores, inside the repository so that imports resolve. */
export const SCRATCH = join(repo, 'tmp/doc-samples');

export interface AssembledSample {
  block: DocBlock;
  /** The module written, absolute. */
  file: string;
  /** Line of the module where the block's first line landed, 1-based; imports are hoisted to the top. */
  firstLine: number;
}

/**
 * Writes `block` into its context: the context's text with the line
 * `// @sample` replaced by the block, the block's `import` declarations
 * moved to the top of the module. `mural-cli` is the CLI package; until
 * tsconfig.json maps it, it is read from commands/index.ts.
 */
export function assemble(block: DocBlock, context: string): AssembledSample {
  const template = readFileSync(join(CONTEXTS, `${context}.ts.txt`), 'utf8');
  const lines = block.body.split('\n');
  const imports: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^import\s/.test(lines[i]!)) {
      let j = i;
      while (!/(from\s+)?['"][^'"]+['"];?\s*$/.test(lines[j]!) && j < lines.length - 1) j++;
      imports.push(...lines.slice(i, j + 1));
      rest.push(...lines.slice(i, j + 1).map(() => ''));
      i = j;
    } else {
      rest.push(lines[i]!);
    }
  }
  const slot = template.split('\n').findIndex((line) => line.trim() === '// @sample');
  if (slot < 0) throw new Error(`context ${context} has no // @sample line`);
  const templateLines = template.split('\n');
  const indent = /^\s*/.exec(templateLines[slot]!)![0];
  const name = `${block.file.replace(/[/.]/g, '-')}-${block.line}`;
  const directory = join(SCRATCH, name);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const files = join(CONTEXTS, `${context}.files`);
  if (existsSync(files)) copyTree(files, directory);
  const file = join(directory, 'sample.ts');
  const head = [`// ${block.file}:${block.line}, in the context test/docs/contexts/${context}.ts.txt`, ...imports];
  const body = [...templateLines.slice(0, slot), ...rest.map((line) => (line ? indent + line : line)), ...templateLines.slice(slot + 1)];
  const text = [...head, ...body].join('\n').replace(/(from\s+)'mural-cli'/g, `$1'${cliSpecifier(directory)}'`);
  writeFileSync(file, text);
  return { block, file, firstLine: head.length + slot + 1 };
}

function copyTree(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      mkdirSync(join(to, entry.name), { recursive: true });
      copyTree(join(from, entry.name), join(to, entry.name));
    } else {
      copyFileSync(join(from, entry.name), join(to, entry.name.replace(/\.txt$/, '')));
    }
  }
}

/** `mural-cli` where tsconfig.json maps it, else the path of commands/index.ts from `directory`. */
function cliSpecifier(directory: string): string {
  const tsconfig = JSON.parse(readFileSync(join(repo, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths?: Record<string, unknown> } };
  if (tsconfig.compilerOptions.paths?.['mural-cli']) return 'mural-cli';
  return relative(directory, join(repo, 'commands/index.ts'));
}

/** The tsconfig that type-checks every assembled sample as the repository's own code is checked. */
export function writeScratchTsconfig(): string {
  const file = join(SCRATCH, 'tsconfig.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ extends: '../../tsconfig.json', include: ['**/*.ts'] }, null, 2));
  return file;
}
