import { isAbsolute, relative } from 'node:path';
import { MuralError, type JsonApiErrorObject } from './mural-error.ts';

/** A place in the application's source: where a DSL call was made. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One mistake `checkResources` found. */
export interface ResourceProblem {
  /** The Resource class at fault: `EmployeeResource`. */
  readonly resource: string;
  /** What of it: an attribute, relationship, filter, sort or stat name, or a setting (`model`, `type`, `endpoint`, `polymorphic`). */
  readonly member: string;
  /** What is wrong, and how to put it right. */
  readonly problem: string;
  /** Where the member was declared, when known. */
  readonly location?: SourceLocation;
}

/**
 * Resources that cannot be served as declared: attributes no model has,
 * relationships leading nowhere, two Resources on one endpoint. Raised once,
 * before anything is served (`muralRouter`, the CLI, `checkResources`), with
 * every problem found rather than the first: fixing one at a time, a restart
 * each, is what the check spares.
 */
export class ResourceCheckFailed extends MuralError {
  readonly status = 500;
  readonly code = 'invalid_resources';
  readonly title = 'Invalid Resources';

  /** `root`: the directory source locations are shown relative to. */
  constructor(readonly problems: readonly ResourceProblem[], root = process.cwd()) {
    super(summary(problems, root));
  }

  /** One error object per problem; source locations stay out, as stacks do, of anything a client could see. */
  override toJsonapiErrors(): JsonApiErrorObject[] {
    return this.problems.map((p) => ({
      status: String(this.status),
      code: this.code,
      title: this.title,
      detail: `${p.resource}.${p.member}: ${p.problem}`,
      meta: { resource: p.resource, member: p.member },
    }));
  }
}

function summary(problems: readonly ResourceProblem[], root: string): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return `The Resources have ${count}:\n${problems.map((p) => `  ${formatProblem(p, root)}`).join('\n')}`;
}

/** `EmployeeResource.titel: not a column of model Employee; did you mean "title"? (at app/resources/employee.ts:12:5)` */
export function formatProblem(problem: ResourceProblem, root = process.cwd()): string {
  const text = `${problem.resource}.${problem.member}: ${problem.problem}`;
  if (!problem.location) return text;
  const { file, line, column } = problem.location;
  const shown = isAbsolute(file) && !relative(root, file).startsWith('..') ? relative(root, file) : file;
  return `${text} (at ${shown}:${line}:${column})`;
}
