import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument, OperationObject, Reference, ResponseObject } from '../../core/index.ts';

/**
 * Checks responses against an OpenAPI document, as a client generated from it
 * would expect them: the path, method and status must be described, and the
 * body must match the described schema (OpenAPI 3.1's schemas are JSON Schema
 * 2020-12, so Ajv validates them as they are). Validators are compiled once
 * per document and schema.
 */
export class OpenApiResponses {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly paths: Array<{ template: string; pattern: RegExp; parameters: number }>;

  /** `namespaces`: path prefixes the router answers every request under (with a 404 when nothing matches). */
  constructor(private readonly document: OpenApiDocument, private readonly namespaces: readonly string[]) {
    for (const [name, pattern] of Object.entries(FORMATS)) this.ajv.addFormat(name, pattern);
    this.ajv.addSchema(document as object, 'openapi');
    this.paths = Object.keys(document.paths)
      .map((template) => ({ template, pattern: pathPattern(template), parameters: template.split('{').length - 1 }))
      // a literal segment wins over a parameter, as routes are matched in practice
      .sort((a, b) => a.parameters - b.parameters);
  }

  /**
   * Why a JSON:API response does not conform, or undefined when it does.
   * Responses outside the router's paths are not its business and pass.
   */
  problem(method: string, url: string, status: number, body: unknown, contentType = 'application/vnd.api+json'): string | undefined {
    const path = pathOf(url);
    const found = this.paths.find((p) => p.pattern.test(path));
    const operation = found ? this.document.paths[found.template]![method.toLowerCase() as 'get'] : undefined;
    if (!operation) {
      if (!found && !this.namespaces.some((ns) => path === ns || path.startsWith(`${ns}/`))) return undefined;
      // an unknown route under a namespace, or a method the path does not serve: the router's 404 (or 414 for
      // an overlong URL, refused before routing), which no path of a document can describe
      if (status !== 404 && status !== 414) return `${method} ${path} is not in the OpenAPI document, yet it answered ${status}`;
      return this.mismatch('#/components/schemas/jsonapi.error-document', body, `${method} ${path} (unknown route)`);
    }
    const response = this.response(operation, String(status));
    if (!response) return `${method} ${found!.template} answered ${status}, which its OpenAPI operation ${operation.operationId} does not describe`;
    const content = response.content ?? {};
    // the media type as sent (with its ext or profile parameters), else the bare JSON:API one
    const schema = (content[contentType.replace(/\s+/g, '')] ?? content['application/vnd.api+json'])?.schema;
    if (!schema) return `${method} ${found!.template} ${status} describes no ${contentType} body`;
    const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    if (!ref) return `${method} ${found!.template} ${status}: the test support only follows $ref response schemas`;
    return this.mismatch(ref, body, `${method} ${found!.template} ${status} (${operation.operationId})`);
  }

  /** Why a response with no body (a 304) is not one its operation describes, or undefined when it is. */
  bodilessProblem(method: string, url: string, status: number): string | undefined {
    const path = pathOf(url);
    const found = this.paths.find((p) => p.pattern.test(path));
    const operation = found ? this.document.paths[found.template]![method.toLowerCase() as 'get'] : undefined;
    if (!operation) return found || this.namespaces.some((ns) => path.startsWith(`${ns}/`)) ? `${method} ${path} answered ${status} outside the document` : undefined;
    if (this.response(operation, String(status))) return undefined;
    return `${method} ${found!.template} answered ${status}, which its OpenAPI operation ${operation.operationId} does not describe`;
  }

  /** Errors of `body` against the schema at `ref`, or undefined when it validates. */
  mismatch(ref: string, body: unknown, what: string): string | undefined {
    let validate = this.validators.get(ref);
    if (!validate) this.validators.set(ref, (validate = this.ajv.compile({ $ref: `openapi${ref}` })));
    if (validate(body)) return undefined;
    return `${what} does not match ${ref}: ${JSON.stringify(validate.errors?.slice(0, 4))}`;
  }

  private response(operation: OperationObject, status: string): ResponseObject | undefined {
    const entry: ResponseObject | Reference | undefined = operation.responses[status];
    if (!entry || !('$ref' in entry)) return entry;
    return this.document.components.responses[entry.$ref.split('/').pop()!];
  }
}

/** The formats Mural's documents use, as the values it renders spell them. */
const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** Express matches paths ignoring case and a trailing slash; a parameter is one segment. */
function pathPattern(template: string): RegExp {
  const source = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${source}/?$`, 'i');
}

/** The path as the router matches it: percent-encoding kept, so an encoded `/` stays inside its segment. */
function pathOf(url: string): string {
  return url.split('?')[0]!;
}
