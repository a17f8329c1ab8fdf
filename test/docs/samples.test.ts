/**
 * Every code sample of README.md and docs/ runs, or says why it cannot
 * (docs/testing.md, "Samples in the docs"):
 *
 * - curl commands run against the example API, freshly seeded for each page
 *   and in the page's order, and answer what the lines under them say;
 * - `mural` commands against the example's config print what is written
 *   under them;
 * - TypeScript samples type-check and run inside their contexts;
 * - the front page's server serves the answers shown under its curl commands.
 */
import test, { type ExecutionContext } from 'ava';
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { answerProblem, codeBlocks, docFiles, expanded, findInOrder, parseCurl, shellSteps, tokenAssignment, type DocBlock } from '../support/doc-samples.ts';
import { tokenClaims } from '../../examples/employee-directory/auth/token-arguments.ts';
import { signToken } from '../../examples/employee-directory/auth/tokens.ts';
import { sendCurl, startDocsApi, type DocsApi } from '../support/docs-api.ts';
import { repo } from '../support/packed-app.ts';
import { runMural, useScratchDatabase } from '../support/cli.ts';
import { assemble, claimOf, SCRATCH, writeScratchTsconfig, type AssembledSample, type Claim } from './samples.ts';

const run = promisify(execFile);
const blocks = docFiles().flatMap((file) => codeBlocks(file).map((block) => ({ block, claim: claimOf(block) })));
const where = (block: DocBlock, line = block.line) => `${block.file}:${line}`;

test('every sample is run by a test, or says why it is not', (t) => {
  const unclaimed = blocks.filter(({ claim }) => typeof claim === 'string').map(({ block, claim }) => `${where(block)} (${block.language || 'no language'}): ${claim}`);
  t.deepEqual(unclaimed, []);
  t.true(blocks.filter(({ claim }) => typeof claim !== 'string' && claim.kind !== 'not-run').length > 50);
});

const claimed = <K extends Claim['kind']>(kind: K) =>
  blocks.filter((b): b is { block: DocBlock; claim: Extract<Claim, { kind: K }> } => typeof b.claim !== 'string' && b.claim.kind === kind);

// ---- curl against the example API, page by page -------------------------------------------------

const httpPages = [...new Set([...claimed('http'), ...claimed('answer')].map(({ block }) => block.file))];

for (const page of httpPages) {
  test.serial(`${page}: the curl samples answer as written`, async (t) => {
    t.timeout(120_000);
    const api = await startDocsApi();
    try {
      await runHttpBlocks(t, api, blocks.filter(({ block }) => block.file === page));
    } finally {
      await api.close();
    }
  });
}

async function runHttpBlocks(t: ExecutionContext, api: DocsApi, pageBlocks: typeof blocks): Promise<void> {
  let last: { text: string; at: string } | undefined;
  // a page's shell variables: the tokens its samples hold (`TOKEN=$(npm run --silent token -- …)`)
  const variables = new Map<string, string>();
  for (const { block, claim } of pageBlocks) {
    if (typeof claim === 'string') continue;
    if (claim.kind === 'answer') {
      if (!last) {
        t.fail(`${where(block)}: an answer block with no curl command before it`);
        continue;
      }
      t.deepEqual(JSON.parse(last.text), JSON.parse(block.body), `${where(block)}: the answer of ${last.at}`);
      continue;
    }
    if (claim.kind !== 'http') continue;
    for (const step of shellSteps(block)) {
      const assignment = tokenAssignment(step.text);
      if (assignment) {
        variables.set(assignment.name, await signToken(tokenClaims(assignment.args)));
        continue;
      }
      const answer = await sendCurl(api, expanded(step.words, variables));
      const problem = answerProblem(step.expected, answer, answer.showHeaders);
      if (problem) t.fail(`${where(block, step.line)}: ${step.text}\n${problem}`);
      else t.pass();
      last = { text: answer.text, at: where(block, step.line) };
    }
  }
}

// ---- mural commands against the example ----------------------------------------------------------

if (claimed('cli').length > 0) {
  test.serial('the mural commands against the example print what the docs say', async (t) => {
    t.timeout(300_000);
    useScratchDatabase('docs-samples');
    for (const { block } of claimed('cli')) {
      for (const step of shellSteps(block)) {
        const result = await runMural(step.words.slice(2), repo);
        const exit = step.expected.find((line) => /^exit code \d+$/.test(line.trim()));
        const expectedCode = exit ? Number(exit.trim().slice('exit code '.length)) : 0;
        const output = `${result.out}${result.err}`;
        if (result.code !== expectedCode) {
          t.fail(`${where(block, step.line)}: ${step.text}\nexit code ${result.code}, not ${expectedCode}:\n${output}`);
          continue;
        }
        let position = 0;
        for (const line of step.expected.filter((l) => l !== exit)) {
          const end = findInOrder(line.trim(), output, position);
          if (end < 0) {
            t.fail(`${where(block, step.line)}: ${step.text}\nexpected, in order: ${line.trim()}\n--- it printed:\n${output.slice(0, 3000)}`);
            break;
          }
          position = end;
        }
        t.pass();
      }
    }
  });
}

// ---- TypeScript samples --------------------------------------------------------------------------

let assembled: AssembledSample[] | undefined;
const assembleAll = () => {
  if (assembled) return assembled;
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  assembled = claimed('ts').map(({ block, claim }) => assemble(block, claim.context));
  // the front page's server is type-checked too (its test runs it)
  for (const { block } of claimed('front-page').filter(({ block }) => block.language === 'ts')) {
    const directory = join(SCRATCH, 'front-page');
    mkdirSync(directory, { recursive: true });
    const file = join(directory, /^\/\/ (\S+)/.exec(block.body)![1]!);
    writeFileSync(file, block.body);
    assembled.push({ block, file, firstLine: 1 });
  }
  return assembled;
};

test.serial('the TypeScript samples type-check in their contexts', async (t) => {
  t.timeout(300_000);
  const samples = assembleAll();
  const config = writeScratchTsconfig();
  const result = await run(join(repo, 'node_modules/.bin/tsc'), ['--noEmit', '-p', config], { cwd: repo, maxBuffer: 16 << 20 }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
  // each error, at the docs' line where it can be
  const errors = result.out.split('\n').filter((line) => /error TS\d+/.test(line)).map((line) => {
    const match = /^(.*?)\((\d+),(\d+)\)/.exec(line);
    const sample = match && samples.find((s) => join(repo, match[1]!) === s.file);
    if (!sample) return line;
    const offset = Number(match![2]) - sample.firstLine;
    const inBlock = offset >= 0 && offset < sample.block.body.split('\n').length;
    return `${inBlock ? where(sample.block, sample.block.line + 1 + offset) : `${where(sample.block)} (its context, ${match![1]}:${match![2]})`}: ${line.slice(line.indexOf('error'))}`;
  });
  t.deepEqual(errors, [], result.out);
  t.is(result.code, 0, result.out);
});

for (const { block, claim } of claimed('ts')) {
  test.serial(`${where(block)}: the sample runs in its context (${claim.context})`, async (t) => {
    t.timeout(120_000);
    const sample = assembleAll().find((s) => s.block === block)!;
    const module = (await import(pathToFileURL(sample.file).href)) as { check?: (t: ExecutionContext) => unknown; close?: () => unknown };
    try {
      await module.check?.(t);
      t.pass();
    } finally {
      await module.close?.();
    }
  });
}

// ---- the front page's server ---------------------------------------------------------------------

test.serial('README: the 30-second example serves what its curl commands show', async (t) => {
  t.timeout(120_000);
  const [server, commands] = [claimed('front-page').filter(({ block }) => block.language === 'ts'), claimed('front-page').filter(({ block }) => block.language === 'sh')];
  t.is(server.length, 1);
  t.true(commands.length > 0);
  const file = assembleAll().find((s) => s.block === server[0]!.block)!.file;
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: repo, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  try {
    await waitUntilAnswering(port, () => output);
    for (const { block } of commands) {
      for (const step of shellSteps(block)) {
        const request = parseCurl(step.words);
        const response = await fetch(`http://127.0.0.1:${port}${request.path}`, { method: request.method, headers: { accept: '*/*', ...request.headers }, body: request.body });
        const answer = { status: response.status, statusText: response.statusText, headers: response.headers, text: await response.text() };
        const problem = answerProblem(step.expected, answer, request.showHeaders);
        if (problem) t.fail(`${where(block, step.line)}: ${step.text}\n${problem}`);
        else t.pass();
      }
    }
  } finally {
    child.kill();
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitUntilAnswering(port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`the front page's server did not answer within 60 s:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
