import { didYouMean } from '../../core/did-you-mean.ts';
import { ALL_ACTIONS } from '../../core/index.ts';
import { CommandError } from '../host/command.ts';
import { noun } from '../host/plural.ts';
import type { GenerateRequest } from '../template-context.ts';
import { typeProblem } from './attribute-types.ts';

type Attribute = GenerateRequest['attributes'][number];

/** What JSON:API keeps for itself, and the model's primary key every generated Resource already has. */
const RESERVED = new Set(['id', 'type']);

/**
 * Each check returns the problem as a sentence, or undefined: the prompts
 * show it under the answer being typed, the command line exits with it.
 */
export function nameProblem(name: string): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9]*$/.test(name)) return undefined;
  return `"${name}" is not a valid resource name; use letters and digits, starting with a letter, e.g. Employee`;
}

/** `founded:year` → its problem; `founded:integer` → undefined. */
export function attributeProblem(spec: string): string | undefined {
  const [name, type, ...rest] = spec.split(':');
  if (!name || type === undefined || rest.length > 0) return `"${spec}" is not name:type, e.g. first_name:string`;
  if (!/^[a-z][a-z0-9_]*$/.test(name)) return `The attribute name in "${spec}" must be snake_case, e.g. first_name`;
  if (RESERVED.has(name)) return `"${spec}": every Resource has its own ${name}; leave it out`;
  return typeProblem(type, ` in "${spec}"`);
}

/** The first problem among several attributes, repeated names included. */
export function attributesProblem(specs: readonly string[]): string | undefined {
  for (const spec of specs) {
    const problem = attributeProblem(spec);
    if (problem) return problem;
  }
  const names = specs.map((spec) => spec.split(':')[0]!);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  return repeated === undefined ? undefined : `"${repeated}" is given twice`;
}

export function actionsProblem(actions: readonly string[]): string | undefined {
  const valid = ALL_ACTIONS as readonly string[];
  const unknown = actions.filter((action) => !valid.includes(action));
  if (unknown.length === 0) return undefined;
  return `Unknown ${noun(unknown.length, 'action')} ${unknown.join(', ')}; ${didYouMean(unknown[0]!, valid)}valid: ${valid.join(', ')}`;
}

/** `Author`, `author` and `AuthorResource` all name the Resource class AuthorResource. */
function className(name: string): string {
  const bare = name.length > 'Resource'.length ? name.replace(/Resource$/, '') : name;
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

/** The command line's request, checked; a problem is a usage error (exit 2) and nothing is written. */
export function generateRequest(name: string, specs: readonly string[], actions: readonly string[]): GenerateRequest {
  const problem = nameProblem(name) ?? attributesProblem(specs) ?? actionsProblem(actions);
  if (problem) throw new CommandError(problem, 2);
  const attributes: Attribute[] = specs.map((spec) => {
    const [attribute, type] = spec.split(':') as [string, string];
    return { name: attribute, type };
  });
  return { name: className(name), attributes, actions: actions.length > 0 ? [...actions] : [...ALL_ACTIONS] };
}
