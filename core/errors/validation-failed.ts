import { MuralError, type JsonApiErrorObject } from './mural-error.ts';

/** One problem with a record of a write, in the spec's 422 shape. */
export interface ValidationIssue {
  /** Attribute name, or undefined for an error about the record as a whole. */
  attribute?: string;
  message: string;
  code: string;
  /**
   * The member of the record's resource object the issue points at when it
   * is not the attribute: `/type`, or `` for the object itself.
   */
  member?: string;
}

/** Where an invalid record sits in the written graph. */
export interface RecordLocation {
  /**
   * Pointer of the record's resource object: `/data` or `/included/2`; null
   * when the request holds none for it (a record only named by a resource
   * identifier, the parent of a relationship write): its issues then point
   * at `identifier`, or at `/data`, a relationship write's linkage.
   */
  pointer: string | null;
  /** For a record without a resource object: where the request names it (`/data/relationships/teams/data/0`, `/data/1`). */
  identifier?: string;
  /** For related records: the relationship and the record's identity. */
  relationship?: { name: string; type: string; id?: string; tempId?: string };
}

/**
 * Every invalid record of a write, each issue one error object. The whole
 * write was rolled back.
 */
export class ValidationFailed extends MuralError {
  readonly status = 422;
  readonly code = 'unprocessable_entity';
  readonly title = 'Validation Error';
  readonly issues: ReadonlyArray<{ location: RecordLocation; issue: ValidationIssue }>;

  constructor(issues: ReadonlyArray<{ location: RecordLocation; issue: ValidationIssue }>) {
    super(`${issues.length} validation error${issues.length === 1 ? '' : 's'}`);
    this.issues = issues;
  }

  override toJsonapiErrors(): JsonApiErrorObject[] {
    return this.issues.map(({ location, issue }) => {
      const detail = issue.attribute ? `${humanize(issue.attribute)} ${issue.message}` : issue.message;
      const pointer = pointerOf(location, issue);
      const base = { attribute: issue.attribute ?? null, message: issue.message, code: issue.code };
      const rel = location.relationship;
      const meta = rel
        ? { relationship: { ...base, name: rel.name, type: rel.type, ...(rel.tempId ? { 'temp-id': rel.tempId } : { id: rel.id }) } }
        : base;
      return { code: 'unprocessable_entity', status: '422', title: 'Validation Error', detail, source: { pointer }, meta };
    });
  }
}

/** An attribute or relationship the request may not write: 422 before anything is persisted. */
export class UnwritableError extends MuralError {
  readonly status = 422;
  readonly code = 'unprocessable_entity';
  readonly title = 'Validation Error';

  constructor(kind: 'attribute' | 'relationship', name: string, resourceType: string, pointer: string) {
    super(`${kind === 'attribute' ? 'Attribute' : 'Relationship'} "${name}" of ${resourceType} cannot be written`, {
      pointer,
      meta: { attribute: name, message: 'cannot be written', code: kind === 'attribute' ? 'unwritable_attribute' : 'unwritable_relationship' },
    });
  }
}

/** The member an issue points at: the attribute, the member it names, else the record's resource object or identifier. */
function pointerOf(location: RecordLocation, issue: ValidationIssue): string {
  if (location.pointer === null) return location.identifier ?? '/data';
  if (issue.member !== undefined) return location.pointer + issue.member;
  return issue.attribute ? `${location.pointer}/attributes/${issue.attribute}` : location.pointer;
}

/** `first_name` → `First name`. */
export function humanize(attribute: string): string {
  const words = attribute.replace(/_id$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
