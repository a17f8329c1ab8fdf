import { MuralError } from './mural-error.ts';

/** The request's body is not in a media type the endpoint takes (JSON:API's 415): `source.header` names the header. */
export class UnsupportedMediaType extends MuralError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
  readonly title = 'Unsupported Media Type';

  constructor(detail: string, header = 'Content-Type') {
    super(detail, { header });
  }
}
