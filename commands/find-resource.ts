import { didYouMean } from '../core/did-you-mean.ts';
import type { Resource } from '../core/index.ts';
import { CommandError } from './host/command.ts';

/** `employees`, `Employees`, `EmployeeResource`, `employee`: any of them names EmployeeResource. */
export function findResource(resources: ReadonlyArray<typeof Resource>, name: string): typeof Resource {
  const wanted = name.toLowerCase();
  const names = (r: typeof Resource) => {
    const bare = r.name.replace(/Resource$/, '').toLowerCase();
    return [r.type.toLowerCase(), r.name.toLowerCase(), bare, `${bare}s`];
  };
  const concrete = resources.filter((r) => !r.abstractClass);
  const found = concrete.find((r) => names(r).includes(wanted));
  if (found) return found;
  const known = concrete.map((r) => r.type).sort();
  if (known.length === 0) throw new CommandError(`Unknown resource "${name}": the config loaded no Resources`);
  throw new CommandError(`Unknown resource "${name}"; ${didYouMean(name, known)}known: ${known.join(', ')}`);
}
