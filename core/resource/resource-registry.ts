/**
 * Every Resource class that declared something, so relationships can name
 * their related Resource by type or class name. When several classes answer to
 * the same name (an application defined twice, say once per database in
 * tests), the one sharing the closest ancestor with the asking class wins.
 */
const registered: object[] = [];
let revision = 0;

export function registerResource(resourceClass: object): void {
  registered.push(resourceClass);
  revision++;
}

/** Changes whenever a class is registered, so prepared state can be refreshed. */
export function registryRevision(): number {
  return revision;
}

export function registeredResources(): readonly object[] {
  return registered;
}

export function closestMatch<T extends object>(from: object, candidates: readonly T[]): T | undefined {
  if (candidates.length <= 1) return candidates[0];
  const fromChain = ancestorsOf(from);
  // how far up from `from` the nearest ancestor shared with the candidate sits
  const distance = (candidate: object) => {
    for (const ancestor of ancestorsOf(candidate)) {
      const index = fromChain.indexOf(ancestor);
      if (index !== -1) return index;
    }
    return Infinity;
  };
  let best = candidates[0]!;
  for (const candidate of candidates.slice(1)) {
    // ties go to the class registered last
    if (distance(candidate) <= distance(best)) best = candidate;
  }
  return best;
}

function ancestorsOf(cls: object): object[] {
  const chain: object[] = [];
  for (let c: object | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null) chain.push(c);
  return chain;
}
