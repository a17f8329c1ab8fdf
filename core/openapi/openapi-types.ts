/**
 * The parts of an OpenAPI 3.1 document Mural writes. Schemas are JSON Schema
 * 2020-12 (OpenAPI 3.1's dialect), kept as plain JSON values: they are data
 * to serialize and validate against, never types code is written in.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object; a member whose value is `undefined` is left out when serialized. */
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

/** A JSON Schema (2020-12) object, or a `$ref` to one. */
export type JsonSchema = JsonObject;

/** `{ $ref: '#/components/…' }`. */
export interface Reference {
  $ref: string;
}

/** The document's `info`: what the API is called and its version. */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  description?: string;
  required?: boolean;
  style?: 'form' | 'simple' | 'deepObject';
  explode?: boolean;
  schema: JsonSchema;
  /** Mural's extension: the parameter is available only when a guard allows. */
  'x-mural-guard'?: true;
}

export interface MediaTypeObject {
  schema: JsonSchema;
}

export interface HeaderObject {
  description?: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface RequestBodyObject {
  description?: string;
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

/** The HTTP methods an OpenAPI path item of a Mural document may hold. */
export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Array<ParameterObject | Reference>;
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Reference>;
  /** Mural's extension: the actions of the Resource a `guard(...)` decides per request. */
  'x-mural-guard'?: true;
}

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>> & { parameters?: ParameterObject[] };

export interface TagObject {
  name: string;
  description?: string;
}

export interface OpenApiComponents {
  schemas: Record<string, JsonSchema>;
  parameters: Record<string, ParameterObject>;
  responses: Record<string, ResponseObject>;
}

/** An OpenAPI 3.1 document describing every endpoint of a set of Resources. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiInfo;
  servers?: Array<{ url: string; description?: string }>;
  tags: TagObject[];
  paths: Record<string, PathItemObject>;
  components: OpenApiComponents;
}
