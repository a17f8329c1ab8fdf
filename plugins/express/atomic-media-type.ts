import { ATOMIC_EXTENSION, UnsupportedMediaType } from '../../core/index.ts';
import { JSONAPI_MEDIA_TYPE } from './media-type.ts';

/** What the operations endpoint answers with, exactly: the JSON:API media type with the extension applied, no charset. */
export const ATOMIC_MEDIA_TYPE = `${JSONAPI_MEDIA_TYPE}; ext="${ATOMIC_EXTENSION}"`;

/**
 * The operations endpoint takes the JSON:API media type with the atomic
 * extension among its `ext` URIs, and no parameter but `ext` and `profile`
 * (JSON:API 1.1): anything else is a 415 naming the Content-Type header.
 */
export function assertAtomicContentType(contentType: string | undefined): void {
  const [type = '', ...parameters] = (contentType ?? '').split(';');
  const refuse = (why: string) => {
    throw new UnsupportedMediaType(`${why}; send Content-Type: ${ATOMIC_MEDIA_TYPE}`);
  };
  if (type.trim().toLowerCase() !== JSONAPI_MEDIA_TYPE) refuse(`Operations are sent as ${JSONAPI_MEDIA_TYPE}, not ${JSON.stringify(type.trim())}`);
  let extensions: string[] = [];
  for (const parameter of parameters) {
    const [name = '', ...value] = parameter.split('=');
    const key = name.trim().toLowerCase();
    if (key !== 'ext' && key !== 'profile') refuse(`The JSON:API media type takes no "${key}" parameter`);
    if (key === 'ext') extensions = value.join('=').trim().replace(/^"(.*)"$/, '$1').split(/\s+/);
  }
  if (!extensions.includes(ATOMIC_EXTENSION)) refuse(`Operations need the atomic extension: ext="${ATOMIC_EXTENSION}"`);
}
