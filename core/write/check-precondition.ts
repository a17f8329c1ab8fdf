import { versionAttributeOf, versionOf } from '../conditional/version.ts';
import { BadRequestError, PreconditionFailed } from '../errors/index.ts';
import type { WriteNode } from './write-node.ts';

/**
 * A write's condition on one existing record, checked inside the write's
 * transaction once the record is loaded and locked, so no other write can
 * change it between the comparison and the save. `*` only asks that the
 * record exist (a 404 otherwise, before this). A Resource with no version
 * takes no other condition: a 400, since no tag Mural sends could match.
 */
export function checkPrecondition(node: WriteNode, model: object): void {
  const precondition = node.precondition;
  if (!precondition || precondition.ifMatch === '*') return;
  if (versionAttributeOf(node.resource) === undefined) {
    throw new BadRequestError(
      'precondition_unsupported',
      `${node.resource.type} declare no version, so a write can only be conditional on "*"; set versionAttribute on the Resource`,
      precondition.source,
    );
  }
  const current = versionOf(node.resource, model)!;
  if (precondition.ifMatch.includes(current)) return;
  const record = `${node.resource.type} ${node.id ?? ''}`.trim();
  throw new PreconditionFailed(`${record} is at version ${current}, not the one this write is conditional on; read it again`, precondition.source);
}
