import { NotAcceptable, UnsupportedMediaType } from '../errors/index.ts';
import { parseAccept, parseMediaType, type MediaRange } from './media-range.ts';

/** JSON:API's media type, which every Mural answer carries as its `Content-Type`. */
export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';
/** The JSON:API version Mural speaks, in every HTTP answer's `jsonapi.version`. */
export const JSONAPI_VERSION = '1.1';

/** The JSON:API media type parameters a server may receive; any other makes an instance unusable. */
const ALLOWED_PARAMETERS = new Set(['ext', 'profile']);

/**
 * What a request negotiated: the extensions applied to its response (each in
 * `Content-Type`'s `ext` and the `jsonapi` member). Profiles are accepted and
 * ignored, as the spec allows: Mural applies none.
 */
export interface Negotiated {
  ext: readonly string[];
}

/**
 * The answer to `Accept` (JSON:API 1.1, "Server Responsibilities"). JSON:API
 * instances with parameters other than `ext`/`profile`, or with an extension
 * the endpoint does not apply, are ignored; if every JSON:API instance is
 * ignored, 406, even when `*\/*` is also listed, as the spec requires. With no
 * JSON:API instance, `*\/*`, `application/*` or `application/json` accept the
 * document (a JSON:API document is JSON); anything else is a 406.
 *
 * `extensions` are those the endpoint applies when asked (none but the atomic
 * extension's own endpoint); the response applies those the chosen instance asks for.
 */
export function negotiateAccept(header: string | undefined, extensions: readonly string[] = []): Negotiated {
  if (header === undefined || header.trim() === '') return { ext: [] };
  const ranges = parseAccept(header).filter((range) => range.weight > 0);
  const jsonapi = ranges.filter(isJsonApi);
  if (jsonapi.length > 0) {
    const usable = jsonapi.filter((range) => onlyAllowedParameters(range) && unsupported(range, extensions).length === 0);
    if (usable.length === 0) {
      throw new NotAcceptable(
        `No ${JSONAPI_MEDIA_TYPE} instance in Accept can be served: only the ext and profile parameters are allowed` +
          (extensions.length > 0 ? `, and ext may name only ${extensions.join(' ')}` : ', and this endpoint applies no extension'),
      );
    }
    return { ext: extensionsOf(best(usable)) };
  }
  if (ranges.some(acceptsJson)) return { ext: [] };
  throw new NotAcceptable(`The response is ${JSONAPI_MEDIA_TYPE}; Accept names no type that includes it`);
}

/**
 * The extensions a request body's `Content-Type` applies, or a 415: the body
 * must be JSON:API (or plain JSON), JSON:API with no parameter but
 * `ext`/`profile`, and `ext` naming only extensions this endpoint applies.
 * `required` extensions must be among them (the atomic endpoint's own).
 */
export function negotiateContentType(header: string | undefined, extensions: readonly string[] = [], required: readonly string[] = []): Negotiated {
  const media = header === undefined ? undefined : parseMediaType(header);
  const essence = media && `${media.type}/${media.subtype}`;
  if (essence === 'application/json' && required.length === 0) return { ext: [] };
  if (!media || essence !== JSONAPI_MEDIA_TYPE) {
    throw new UnsupportedMediaType(`A request body must be sent as Content-Type: ${formatMediaType({ ext: required })}${header === undefined ? '' : `, not ${header}`}`);
  }
  const other = [...media.parameters.keys()].filter((name) => !ALLOWED_PARAMETERS.has(name));
  if (other.length > 0) {
    throw new UnsupportedMediaType(`The ${JSONAPI_MEDIA_TYPE} media type takes no parameter but ext and profile; this request has ${other.join(', ')}`);
  }
  const refused = unsupported(media, extensions);
  if (refused.length > 0) throw new UnsupportedMediaType(`This endpoint applies no extension ${refused.join(' ')}`);
  const ext = extensionsOf(media);
  const missing = required.filter((uri) => !ext.includes(uri));
  if (missing.length > 0) throw new UnsupportedMediaType(`This endpoint needs Content-Type: ${formatMediaType({ ext: required })}`);
  return { ext };
}

/** The response's `Content-Type`: the bare JSON:API media type, with `ext` only when an extension applies. */
export function formatMediaType({ ext }: Negotiated): string {
  return ext.length === 0 ? JSONAPI_MEDIA_TYPE : `${JSONAPI_MEDIA_TYPE}; ext="${ext.join(' ')}"`;
}

/** The top-level `jsonapi` member of a response document. */
export function jsonapiMember({ ext }: Negotiated): { version: string; ext?: string[] } {
  return ext.length === 0 ? { version: JSONAPI_VERSION } : { version: JSONAPI_VERSION, ext: [...ext] };
}

function isJsonApi(range: MediaRange): boolean {
  return `${range.type}/${range.subtype}` === JSONAPI_MEDIA_TYPE;
}

function acceptsJson(range: MediaRange): boolean {
  return range.type === '*' || (range.type === 'application' && (range.subtype === '*' || range.subtype === 'json'));
}

function onlyAllowedParameters(range: MediaRange): boolean {
  return [...range.parameters.keys()].every((name) => ALLOWED_PARAMETERS.has(name));
}

function extensionsOf(range: MediaRange): string[] {
  return (range.parameters.get('ext') ?? '').split(' ').filter((uri) => uri !== '');
}

function unsupported(range: MediaRange, extensions: readonly string[]): string[] {
  return extensionsOf(range).filter((uri) => !extensions.includes(uri));
}

/** The most preferred instance: highest weight, then the first listed. */
function best(ranges: MediaRange[]): MediaRange {
  return ranges.reduce((chosen, range) => (range.weight > chosen.weight ? range : chosen));
}
