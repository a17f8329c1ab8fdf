import type { IfMatch } from '../conditional/entity-tags.ts';
import { versionAttributeOf, versionOf } from '../conditional/version.ts';
import { BadRequestError, PreconditionFailed, type MuralErrorOptions } from '../errors/index.ts';
import type { WriteNode } from './write-node.ts';

/**
 * A write's conditions on one existing record, checked inside the write's
 * transaction once the record is loaded and locked, so no other write can
 * change it between the comparison and the save. `If-Match: *` only asks
 * that the record exist (a 404 otherwise, before this); `If-None-Match: *`
 * that it not, so on a record that exists it is always a 412 (RFC 9110
 * §13.1.2). A Resource with no version takes no other condition: a 400,
 * since no tag Mural sends could be compared.
 */
export function checkPrecondition(node: WriteNode, model: object): void {
  const precondition = node.precondition;
  if (!precondition) return;
  const record = `${node.resource.type} ${node.id ?? ''}`.trim();
  const { ifMatch, ifNoneMatch } = precondition;
  if (ifMatch !== undefined && ifMatch !== '*') {
    const current = currentVersion(node, model, precondition.source);
    if (!ifMatch.includes(current)) {
      throw new PreconditionFailed(`${record} is at version ${current}, not the one this write is conditional on; read it again`, precondition.source);
    }
  }
  if (ifNoneMatch !== undefined) checkNoneMatch(node, model, record, ifNoneMatch);
}

function checkNoneMatch(node: WriteNode, model: object, record: string, ifNoneMatch: IfMatch): void {
  const source = { header: 'If-None-Match' };
  if (ifNoneMatch === '*') throw new PreconditionFailed(`${record} exists, and If-None-Match: * asks that it not`, source);
  const current = currentVersion(node, model, source);
  if (ifNoneMatch.includes(current)) throw new PreconditionFailed(`${record} is at version ${current}, which If-None-Match excludes`, source);
}

function currentVersion(node: WriteNode, model: object, source: Pick<MuralErrorOptions, 'header' | 'pointer'>): string {
  if (versionAttributeOf(node.resource) === undefined) {
    throw new BadRequestError(
      'precondition_unsupported',
      `${node.resource.type} declare no version, so a write can only be conditional on "*"; set versionAttribute on the Resource`,
      source,
    );
  }
  return versionOf(node.resource, model)!;
}
