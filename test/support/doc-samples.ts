/**
 * The code samples of README.md and docs/, as the docs tests read them
 * (docs/testing.md, "Samples in the docs", states the convention):
 *
 * - a fenced block may be preceded by `<!-- sample: KIND -->` (blank lines
 *   between are allowed), which says which test runs it, or why none does;
 * - `sh` blocks of `curl` commands run against the example API; the `# `
 *   lines right under a command are its expected answer;
 * - `sh` blocks of `npx mural … --config examples/employee-directory/…`
 *   commands run the CLI in-process; the `# ` lines under each are expected output;
 * - `ts` blocks run inside a named context of test/docs/contexts/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repo } from './packed-app.ts';

/** One fenced block of a Markdown page. */
export interface DocBlock {
  /** Path from the repository root (`docs/guide/writes.md`). */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  body: string;
  /** What `<!-- sample: … -->` above the block says, trimmed; undefined without one. */
  sample?: string;
  /** The nearest heading above the block. */
  heading: string;
}

/** README.md and every page under docs/, except the generated API reference (docs/api/). */
export function docFiles(): string[] {
  const files = ['README.md'];
  const walk = (directory: string) => {
    for (const entry of readdirSync(join(repo, directory), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = `${directory}/${entry.name}`;
      if (entry.isDirectory()) {
        if (path !== 'docs/api') walk(path);
      } else if (entry.name.endsWith('.md')) {
        files.push(path);
      }
    }
  };
  walk('docs');
  return files;
}

export function readDoc(file: string): string {
  return readFileSync(join(repo, file), 'utf8');
}

/** The fenced blocks of one page, with the sample marker and heading above each. */
export function codeBlocks(file: string, text = readDoc(file)): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let heading = '';
  let marker: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^(\s*)(`{3,})([\w-]*)\s*$/.exec(line);
    if (fence) {
      const [, indent, ticks, language] = fence;
      const close = lines.findIndex((l, j) => j > i && l.trim() === ticks);
      if (close < 0) throw new Error(`${file}:${i + 1}: unclosed code fence`);
      // a fence indented in a list item: its lines are indented as much
      const body = lines.slice(i + 1, close).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l.trimStart()));
      blocks.push({ file, line: i + 1, language: language || '', body: body.join('\n'), sample: marker, heading });
      marker = undefined;
      i = close;
      continue;
    }
    const sample = /^\s*<!--\s*sample:\s*([\s\S]*?)\s*-->\s*$/.exec(line);
    if (sample) {
      marker = sample[1];
    } else if (line.trim() !== '') {
      marker = undefined;
      const title = /^#{1,6} (.*)$/.exec(line);
      if (title) heading = title[1]!;
    }
  }
  return blocks;
}

/** One shell command of a `sh` block, with the comment above it and the answer under it. */
export interface ShellStep {
  /** 1-based line in the page. */
  line: number;
  /** The command as written, continuation lines joined. */
  text: string;
  words: string[];
  /** `# ` lines right under the command, without the `# `. */
  expected: string[];
}

/**
 * The commands of a `sh` block. A command may continue over lines (a
 * trailing `\`, or a single-quoted string left open); the `# ` lines right
 * under it, up to a blank line, are what it answers; `#` lines after a blank
 * line are comments on what follows.
 */
export function shellSteps(block: DocBlock): ShellStep[] {
  const lines = block.body.split('\n');
  const steps: ShellStep[] = [];
  let current: ShellStep | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') {
      current = undefined;
      continue;
    }
    if (line.startsWith('#')) {
      if (current) current.expected.push(line.replace(/^# ?/, ''));
      continue;
    }
    let text = line;
    const first = i;
    for (;;) {
      const open = openQuote(text);
      if (open || /\\$/.test(text)) {
        i++;
        if (i >= lines.length) throw new Error(`${block.file}:${block.line + first + 1}: command not closed`);
        text = open ? `${text}\n${lines[i]}` : `${text.replace(/\\$/, '')}${lines[i]!.replace(/^\s+/, ' ')}`;
      } else {
        break;
      }
    }
    current = { line: block.line + first + 1, text, words: shellWords(text), expected: [] };
    steps.push(current);
  }
  return steps;
}

function openQuote(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      return false;
    }
  }
  return quote !== undefined;
}

/** Words of a command: single and double quotes group (no escapes inside), `#` after a space starts a comment. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '#' && word === undefined) {
      break;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) throw new Error(`Unclosed quote in: ${text}`);
  if (word !== undefined) words.push(word);
  return words;
}

/** What a `curl` command of the docs sends. */
export interface CurlRequest {
  method: string;
  /** Path and query, from the URL as written (`/api/v1/employees?…`). */
  path: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body?: string;
  /** `-i`: the answer shows the status line and headers. */
  showHeaders: boolean;
}

/** Reads a curl command's options as curl does, for the few options the docs use. */
export function parseCurl(words: string[]): CurlRequest {
  if (words[0] !== 'curl') throw new Error(`not a curl command: ${words.join(' ')}`);
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  let glob = true;
  let showHeaders = false;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-X') method = words[++i];
    else if (word === '-H') {
      const header = words[++i]!;
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === '-d' || word === '--data') body = words[++i];
    else if (/^-[a-zA-Z]+$/.test(word)) {
      for (const flag of word.slice(1)) {
        if (flag === 'g') glob = false;
        else if (flag === 'i') showHeaders = true;
        else if (flag !== 's') throw new Error(`curl option -${flag} is not one the docs tests understand`);
      }
    } else if (word.startsWith('-')) throw new Error(`curl option ${word} is not one the docs tests understand`);
    else if (url === undefined) url = word;
    else throw new Error(`curl with two URLs: ${words.join(' ')}`);
  }
  if (!url) throw new Error(`curl without a URL: ${words.join(' ')}`);
  if (glob && /[[\]{}]/.test(url)) throw new Error(`curl reads [ ] { } in a URL as a glob: add -g (${url})`);
  const parsed = new URL(/^https?:\/\//.test(url) ? url : `http://${url}`);
  if (parsed.hostname !== 'localhost' || parsed.port !== '3000') throw new Error(`the docs' curl commands talk to localhost:3000 (npm start): ${url}`);
  if (body !== undefined) headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), path: `${parsed.pathname}${parsed.search}`, headers, body, showHeaders };
}

/** An answer as the docs show it: the status line, headers, then the body. */
export interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

/**
 * What is wrong with `answer` against the expected lines, in order:
 * `HTTP/1.1 <status> <reason>`, then `Name: value` header lines (only with
 * `-i`), then fragments of the body. `…` in any line stands for anything;
 * the pieces between must appear in that order, each body line after the
 * previous one's match. Returns a message, or undefined when it agrees.
 */
export function answerProblem(expected: readonly string[], answer: Answer, showHeaders: boolean): string | undefined {
  const shown = `HTTP/1.1 ${answer.status} ${answer.statusText}\n${[...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${answer.text}`;
  const problem = (message: string) => `${message}\n--- the answer was:\n${shown.slice(0, 3000)}`;
  let position = 0;
  for (const raw of expected) {
    const line = raw.trim();
    const status = /^HTTP\/1\.1 (\d{3})\b(.*)$/.exec(line);
    const header = /^([A-Za-z][A-Za-z0-9-]*): (.*)$/.exec(line);
    if (status) {
      if (!showHeaders) return problem(`"${line}": a status line the reader sees only with curl -i`);
      if (Number(status[1]) !== answer.status || (status[2]!.trim() && status[2]!.trim() !== answer.statusText)) return problem(`expected "${line}"`);
    } else if (header && !line.startsWith('"')) {
      if (!showHeaders) return problem(`"${line}": a header the reader sees only with curl -i`);
      const value = answer.headers.get(header[1]!);
      if (value === null || !matchesWhole(header[2]!, value)) return problem(`expected the header "${line}"`);
    } else {
      const end = findInOrder(line, answer.text, position);
      if (end < 0) return problem(`expected, in order, the body fragment: ${line}`);
      position = end;
    }
  }
  if (expected.length === 0 && (answer.status < 200 || answer.status > 299)) return problem(`no answer written under it, so it must succeed; it answered ${answer.status}`);
  return undefined;
}

/**
 * Finds `pattern` (pieces separated by `…`, which stands for anything) in
 * `text` at or after `from`, the pieces in order. Returns the end of the
 * match (the end of `text` when the pattern ends with `…`), or -1.
 */
export function findInOrder(pattern: string, text: string, from: number): number {
  let position = from;
  for (const piece of pattern.split('…')) {
    if (piece === '') continue;
    const at = text.indexOf(piece, position);
    if (at < 0) return -1;
    position = at + piece.length;
  }
  return pattern.endsWith('…') ? text.length : position;
}

/** Whether `value` is all of `pattern`: its first piece at the start, its last at the end (unless `…` stands there). */
export function matchesWhole(pattern: string, value: string): boolean {
  const pieces = pattern.split('…');
  if (pieces.length === 1) return value === pattern;
  if (!value.startsWith(pieces[0]!) || !value.endsWith(pieces.at(-1)!)) return false;
  return findInOrder(pattern, value, 0) >= 0;
}

/** Path of `file` as written in a link from `from` (both repository-relative). */
export function relativeLink(from: string, file: string): string {
  return relative(join(repo, from, '..'), join(repo, file));
}

/**
 * `NAME=$(npm run --silent token -- --role admin)`: a shell variable holding
 * a token of the example (`npm run token`), which the curl commands after it
 * send as `"Authorization: Bearer $NAME"`. Its name and the command's
 * arguments; undefined for any other line.
 */
export function tokenAssignment(text: string): { name: string; args: string[] } | undefined {
  const match = /^([A-Z][A-Z0-9_]*)=\$\(npm run --silent token -- ([^)]*)\)$/.exec(text.trim());
  return match ? { name: match[1]!, args: match[2]!.trim().split(/\s+/) } : undefined;
}

/** `words` with each `$NAME` of `variables` replaced by its value, as the shell expands them in double quotes. */
export function expanded(words: readonly string[], variables: ReadonlyMap<string, string>): string[] {
  return words.map((word) => word.replace(/\$([A-Z][A-Z0-9_]*)/g, (whole, name: string) => variables.get(name) ?? whole));
}
