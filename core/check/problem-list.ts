import { nearestName } from '../did-you-mean.ts';
import type { ResourceProblem } from '../errors/index.ts';
import { siteOf } from '../resource/declaration-sites.ts';

/** What a problem is about: the Resource it is reported for, its member, and where to look for the declaration. */
export interface ProblemSubject {
  readonly resource: object & { readonly name: string };
  readonly member: string;
  /** Declaration keys (`attribute:title`, `model`…), tried in order; the class's first declaration when none was recorded. */
  readonly sites: readonly string[];
  /**
   * The declaration itself (an attribute's or relationship's definition),
   * which subclasses share: a problem with it is reported once, for the first
   * Resource checked, rather than again for every polymorphic child.
   */
  readonly declaration?: object;
}

/** `; did you mean "title"?` when a valid name is near `name` (as every did-you-mean of Mural judges it), else `; fix`, or nothing. */
export function hint(name: string, valid: Iterable<string>, fix?: string): string {
  const near = nearestName(name, valid);
  if (near !== undefined) return `; did you mean "${near}"?`;
  return fix ? `; ${fix}` : '';
}

/** The problems found so far, in the order found, each once. */
export class ProblemList {
  readonly problems: ResourceProblem[] = [];
  private readonly reported = new WeakMap<object, Set<string>>();

  add(subject: ProblemSubject, problem: string): void {
    if (subject.declaration) {
      const seen = this.reported.get(subject.declaration) ?? new Set<string>();
      this.reported.set(subject.declaration, seen);
      if (seen.has(problem)) return;
      seen.add(problem);
    }
    const location = [...subject.sites, 'class'].map((key) => siteOf(subject.resource, key)).find((site) => site !== undefined);
    this.problems.push({ resource: subject.resource.name, member: subject.member, problem, ...(location && { location }) });
  }
}
