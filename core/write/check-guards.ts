import { UnwritableError } from '../errors/index.ts';
import { TO_MANY } from '../resource/relationship-definition.ts';
import { resolveGuard } from '../resource/guard.ts';
import { assertAllowed, resourceAllows } from '../resource/resource-guard.ts';
import type { Action } from '../resource/action.ts';
import type { NodeAction, WriteNode } from './write-node.ts';

/** The Resource action a sideposted method performs on the related record. */
const ACTION_OF: Record<NodeAction, Action> = { create: 'create', update: 'update', destroy: 'destroy', disassociate: 'update' };

/**
 * The guards a parsed write graph can be judged by before any record is
 * looked up, so a refusal reads the same whether or not a record exists:
 * the root's own Resource (a polymorphic parent's endpoint writes a child,
 * whose guard applies too), each sideposted record's Resource for the
 * method's action (refused like a relationship whose writable guard refuses,
 * a 422 `unwritable_relationship`), and attribute writable guards that take
 * no model. Guards that take the model wait until it is loaded (WriteSession).
 */
export function checkGuards(root: WriteNode, action: 'create' | 'update'): void {
  assertAllowed([root.resource], action, root.resource.type);
  const seen = new Set<WriteNode>();
  const visit = (node: WriteNode) => {
    if (seen.has(node)) return;
    seen.add(node);
    checkAttributes(node);
    for (const relationship of node.relationships) {
      const toMany = TO_MANY.has(relationship.definition.kind);
      relationship.items.forEach((item, i) => {
        if (!resourceAllows(item.resource, ACTION_OF[item.action])) {
          const pointer = toMany ? `${relationship.pointer}/data/${i}` : `${relationship.pointer}/data`;
          throw new UnwritableError('relationship', relationship.definition.name, node.resource.type, pointer);
        }
        visit(item);
      });
    }
  };
  visit(root);
}

function checkAttributes(node: WriteNode): void {
  const resource = new node.resource();
  node.guardedAttributes = node.guardedAttributes.filter((name) => {
    const guard = resolveGuard(node.resource.config.attributes.get(name)!.writable, resource, `${node.resource.name}.${name}`);
    if (guard.arity > 0) return true;
    if (guard.fixed ?? guard.call(resource)) return false;
    throw new UnwritableError('attribute', name, node.resource.type, `${node.location.pointer ?? ''}/attributes/${name}`);
  });
}
