export { formatMediaType, jsonapiMember, negotiateAccept, negotiateContentType, JSONAPI_MEDIA_TYPE, JSONAPI_VERSION, type Negotiated } from './negotiate.ts';
