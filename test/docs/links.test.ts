/**
 * Every relative link of README.md and docs/ (the generated API reference
 * included) leads somewhere: to a file of the repository and, after `#`, to
 * a heading of that page, as GitHub renders them.
 */
import test from 'ava';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { docFiles, readDoc } from '../support/doc-samples.ts';
import { repo } from '../support/packed-app.ts';

/** Every Markdown page the links test reads: the docs tests' pages, and the API reference. */
function allPages(): string[] {
  const api: string[] = [];
  const walk = (directory: string) => {
    if (!existsSync(join(repo, directory))) return;
    for (const entry of readdirSync(join(repo, directory), { withFileTypes: true })) {
      const path = `${directory}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) api.push(path);
    }
  };
  walk('docs/api');
  return [...docFiles(), ...api.sort()];
}

/** Text outside fenced blocks, where headings are headings. */
function outsideFences(text: string): string {
  return text.replace(/^[ \t]*(`{3,})[^\n]*\n[\s\S]*?^[ \t]*\1\s*$/gm, '');
}

/** Text outside fenced blocks and inline code, where links are links. */
function prose(text: string): string {
  return outsideFences(text).replace(/(`+)[^`\n]*?\1/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page: one per heading (repeats get `-1`, `-2`…), and explicit `<a id>` / `<a name>`. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of outsideFences(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = headingAnchor(heading!.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** `[text](target)` and `![alt](target)` targets that are not URLs. */
function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (!/^[a-z][a-z+.-]*:/i.test(target!)) links.push(target!);
  }
  return links;
}

const pages = allPages();

test('the docs have pages to check, the API reference among them', (t) => {
  t.true(pages.includes('README.md'));
  t.true(pages.some((p) => p.startsWith('docs/guide/')));
  t.true(pages.includes('docs/api/README.md'), 'run npm run docs:api');
});

for (const page of pages) {
  test(`${page}: every relative link and anchor resolves`, (t) => {
    const text = readDoc(page);
    const problems: string[] = [];
    for (const link of relativeLinks(text)) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : normalize(join(dirname(page), decodeURI(path)));
      if (target.startsWith('..') || !existsSync(join(repo, target))) {
        problems.push(`${link}: no file ${target}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!target.endsWith('.md') || statSync(join(repo, target)).isDirectory()) {
        problems.push(`${link}: an anchor into something that is not a page`);
        continue;
      }
      if (!anchorsOf(readDoc(target)).has(decodeURIComponent(anchor))) problems.push(`${link}: ${target} has no heading #${anchor}`);
    }
    t.deepEqual(problems, []);
  });
}

test('the anchors GitHub makes of headings', (t) => {
  t.is(headingAnchor('The mural CLI'), 'the-mural-cli');
  t.is(headingAnchor('Sorts, pages, stats, fields'), 'sorts-pages-stats-fields');
  t.is(headingAnchor('Filtering and sorting by related records'), 'filtering-and-sorting-by-related-records');
  t.is(headingAnchor('mural init'), 'mural-init');
});
