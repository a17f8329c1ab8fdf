import { relative, resolve, sep } from 'node:path';
import type { CommandContext } from '../host/command.ts';
import { parseModuleReference, type ModuleReference } from '../host/module-reference.ts';
import { baseResourceOf, commonNamespace, findResourceClasses, type ResourceClassInfo } from '../init/find-resources.ts';
import { scanProject } from '../init/scan-project.ts';

/** What a generated Resource takes from the application, so that it is served beside the others. */
export interface AppShape {
  /** The abstract Resource it extends, which holds the adapter (and usually the namespace). */
  baseResource?: ModuleReference;
  /** Whether the base was found in the sources rather than named by the config: the user is told which. */
  baseDetected?: boolean;
  /** The namespace it sets itself, when it does not inherit one. */
  endpointNamespace?: string;
}

/**
 * The config's `generator.baseResource` and `generator.endpointNamespace`
 * first; what it leaves out is read from the sources, as `mural init` reads
 * them (never running them): the abstract Resource most Resources extend,
 * else the namespace most of them set. A base whose own source sets the
 * namespace hands it down; otherwise the generated Resource sets it.
 */
export function appShape(context: CommandContext): AppShape {
  const configured = context.config.generator ?? {};
  let classes: ResourceClassInfo[] | undefined;
  const scanned = () => (classes ??= findResourceClasses(scanProject(context.root).files));
  const found = configured.baseResource ? undefined : baseResourceOf(scanned());
  const baseResource = configured.baseResource
    ? parseModuleReference(configured.baseResource, 'generator.baseResource')
    : found && { path: found.file, exportName: found.exportName };
  if (configured.endpointNamespace !== undefined) return { baseResource, baseDetected: Boolean(found), endpointNamespace: configured.endpointNamespace };
  const file = baseResource && relative(context.root, resolve(context.root, baseResource.path)).split(sep).join('/');
  const baseClass = baseResource && scanned().find((c) => c.file === file && (c.exportName === baseResource.exportName || c.name === baseResource.exportName));
  const inherits = baseResource !== undefined && (baseClass === undefined || baseClass.namespace !== undefined);
  return { baseResource, baseDetected: Boolean(found), endpointNamespace: inherits ? undefined : commonNamespace(scanned()) };
}
