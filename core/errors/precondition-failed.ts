import { MuralError, type MuralErrorOptions } from './mural-error.ts';

/**
 * A conditional write whose condition no longer holds: the record's version
 * is not one the client named (`If-Match`, or `meta.version` on a sideposted
 * record), so it changed since the client read it. Nothing was written.
 */
export class PreconditionFailed extends MuralError {
  readonly status = 412;
  readonly code = 'precondition_failed';
  readonly title = 'Precondition Failed';

  constructor(detail: string, options: MuralErrorOptions = { header: 'If-Match' }) {
    super(detail, options);
  }
}
