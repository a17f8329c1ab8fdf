import type { Request } from 'express';
import { Unauthorized, type MuralContext } from 'mural';
import { verifyToken } from './tokens.ts';

/** What the directory's guards read: the caller's role, and who it is. */
export interface DirectoryContext extends MuralContext {
  role?: 'admin' | 'guest';
  user?: { id: number; companyId?: number };
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/**
 * The request context, from a verified bearer token
 * (`Authorization: Bearer <token>`, as `npm run token` prints). No
 * `Authorization` header is an anonymous guest; a header that is not a
 * token this app signed (malformed, forged, expired) is a 401, not a guest:
 * a client that sent credentials learns they failed.
 */
export async function requestContext(req: Request): Promise<DirectoryContext> {
  const header = req.header('Authorization');
  if (header === undefined) return {};
  const token = BEARER.exec(header.trim())?.[1];
  const claims = token === undefined ? undefined : await verifyToken(token);
  if (!claims) throw new Unauthorized();
  return { role: claims.role, user: { id: claims.userId, ...(claims.companyId !== undefined && { companyId: claims.companyId }) } };
}
