export { JSONAPI_MEDIA_TYPE } from '../../core/index.ts';
