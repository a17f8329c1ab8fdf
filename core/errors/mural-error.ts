/** The JSON:API error object every Mural error renders to. */
export interface JsonApiErrorObject {
  status: string;
  code: string;
  title: string;
  detail: string | null;
  source?: { parameter?: string; pointer?: string; header?: string };
  /** JSON:API 1.1's `type` link: the kind of error, as a profile defines it. */
  links?: { type: string };
  meta?: Record<string, unknown>;
}

/**
 * What an error says besides its status and code: its detail, and the query parameter, body member
 * or header at fault.
 */
export interface MuralErrorOptions {
  detail?: string;
  parameter?: string;
  pointer?: string | null;
  /** The request header at fault (JSON:API 1.1's `source.header`). */
  header?: string;
  meta?: Record<string, unknown>;
  /** A URI naming the kind of error (a profile's error type), rendered as `links.type`. */
  typeLink?: string;
}

/**
 * Base class of every error Mural raises on purpose. Each subclass fixes the
 * HTTP status, code and title, so transports render any of them the same way.
 */
export abstract class MuralError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  abstract readonly title: string;
  readonly parameter?: string;
  readonly pointer?: string | null;
  readonly header?: string;
  readonly meta?: Record<string, unknown>;
  readonly typeLink?: string;

  constructor(message: string, options: MuralErrorOptions = {}) {
    super(options.detail ?? message);
    this.name = new.target.name;
    this.parameter = options.parameter;
    this.pointer = options.pointer;
    this.header = options.header;
    this.meta = options.meta;
    this.typeLink = options.typeLink;
  }

  /** The error objects this error contributes to an `errors` document. */
  toJsonapiErrors(): JsonApiErrorObject[] {
    const error: JsonApiErrorObject = {
      status: String(this.status),
      code: this.code,
      title: this.title,
      detail: this.message,
    };
    if (this.parameter !== undefined) error.source = { parameter: this.parameter };
    // null: the error concerns no member of the body; JSON:API's pointer is always a JSON Pointer
    else if (typeof this.pointer === 'string') error.source = { pointer: this.pointer };
    else if (this.header !== undefined) error.source = { header: this.header };
    if (this.typeLink !== undefined) error.links = { type: this.typeLink };
    if (this.meta) error.meta = this.meta;
    return [error];
  }

  /** HTTP headers a transport sends with this error (`Retry-After` on a 503). */
  responseHeaders(): Record<string, string> {
    return {};
  }

  toJsonapi(): { errors: JsonApiErrorObject[] } {
    return { errors: this.toJsonapiErrors() };
  }
}
