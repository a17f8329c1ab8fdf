import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellWords } from './doc-samples.ts';
import { repo } from './packed-app.ts';

export interface ReadmeSteps {
  /** Code blocks whose first line is `// <path>`: the files the section has the reader write. */
  files: Array<{ path: string; content: string }>;
  /** Shell commands of the section's `sh` blocks, in order, comments removed, split into words. */
  commands: string[][];
}

/** The page holding the walk-throughs the package tests follow ("Add Mural to an existing app"). */
export const GETTING_STARTED = 'docs/guide/getting-started.md';

/**
 * The steps of one section (a `##` or `###` heading) of a docs page, by
 * default the getting-started guide, as a reader would follow them: up to
 * the next heading of any level.
 */
export function readmeSteps(heading: string, page = GETTING_STARTED): ReadmeSteps {
  const readme = readFileSync(join(repo, page), 'utf8');
  const found = new RegExp(`\\n(#{2,3}) ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`).exec(readme);
  if (!found) throw new Error(`${page} has no section "## ${heading}"`);
  const rest = readme.slice(found.index + found[0].length - 1);
  const next = rest.search(/\n##+ /);
  const section = next < 0 ? rest : rest.slice(0, next);
  const files: ReadmeSteps['files'] = [];
  const commands: string[][] = [];
  for (const [, language, body] of section.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    if (language === 'sh') {
      for (const line of body!.split('\n')) {
        const words = shellWords(line);
        if (words.length > 0) commands.push(words);
      }
      continue;
    }
    const path = /^\/\/ (\S+)\n/.exec(body!)?.[1];
    if (path) files.push({ path, content: body!.slice(body!.indexOf('\n') + 1) });
  }
  return { files, commands };
}
