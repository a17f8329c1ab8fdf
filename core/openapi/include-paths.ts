import { variantsOf } from '../resource/polymorphism.ts';
import { relationshipTargets, type ResourceClass } from './openapi-input.ts';
import type { OpenApiView } from './openapi-view.ts';
import type { JsonSchema } from './openapi-types.ts';

/** How many paths an `include` parameter lists as examples: the graph of relationships is usually infinite. */
const MAX_EXAMPLES = 12;

/**
 * The `include` parameter's items: a relationship of the Resource (or of a
 * polymorphic child), then any relationships below it, dotted, at most
 * `maxIncludeDepth` deep. Examples go breadth first, so the shallow paths
 * clients use most come first.
 */
export function includeSchema(resource: ResourceClass, view: OpenApiView): JsonSchema | undefined {
  const roots = variantsOf(resource);
  const names = [...new Set(roots.flatMap((r) => view.relationships(r, 'read').map((relationship) => relationship.name)))];
  if (names.length === 0) return undefined;
  const depth = resource.maxIncludeDepth;
  const alternatives = names.map(escapeRegExp).join('|');
  return {
    type: 'string',
    pattern: `^(${alternatives})(\\.[^.,]+){0,${Math.max(depth - 1, 0)}}$`,
    examples: includePaths(roots, depth, view),
  };
}

function includePaths(roots: readonly ResourceClass[], maxDepth: number, view: OpenApiView): string[] {
  const paths: string[] = [];
  let level: Array<{ prefix: string; resources: readonly ResourceClass[] }> = [{ prefix: '', resources: roots }];
  for (let depth = 1; depth <= maxDepth && level.length > 0 && paths.length < MAX_EXAMPLES; depth++) {
    const next: typeof level = [];
    for (const { prefix, resources } of level) {
      const seen = new Set<string>();
      for (const relationship of resources.flatMap((r) => view.relationships(r, 'read'))) {
        if (seen.has(relationship.name)) continue;
        seen.add(relationship.name);
        const path = prefix ? `${prefix}.${relationship.name}` : relationship.name;
        if (paths.length >= MAX_EXAMPLES) return paths;
        paths.push(path);
        next.push({ prefix: path, resources: relationshipTargets(relationship) });
      }
    }
    level = next;
  }
  return paths;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
