import { MuralError, type MuralErrorOptions } from './mural-error.ts';

/**
 * A create naming its own `id` on a Resource that does not take
 * client-generated ids (`clientGeneratedIds`): JSON:API's 403 for a server
 * that does not support them, rather than a 422, since no other value of the
 * member would do.
 */
export class ClientIdUnsupported extends MuralError {
  readonly status = 403;
  readonly code = 'client_id_unsupported';
  readonly title = 'Forbidden';

  constructor(type: string, options: MuralErrorOptions = {}) {
    super(`${type} do not take client-generated ids: leave id out and the server assigns one (or a temp-id for a sideposted record)`, options);
  }
}

/**
 * A create naming an `id` a record already has: JSON:API's 409. Found by a
 * look-up before the insert, or, when a concurrent write took it meanwhile,
 * by the database's primary key, so two creates of one id never both succeed.
 */
export class IdTaken extends MuralError {
  readonly status = 409;
  readonly code = 'id_taken';
  readonly title = 'Conflict';

  constructor(type: string, id: string, options: MuralErrorOptions = {}) {
    super(`${type} ${JSON.stringify(id)} already exists`, options);
  }
}
