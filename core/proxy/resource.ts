import type { FindParams, QueryParams } from '../query-params.ts';
import type { ModelOf } from '../resource/model-of.ts';
import { ResourceBase } from '../resource/resource-base.ts';
import type { WritePayload } from '../write/write-payload.ts';
import { WriteProxy } from '../write/write-proxy.ts';
import { ResourceProxy, type ProxyOptions } from './resource-proxy.ts';

/**
 * The class every application Resource extends: the declarations of
 * ResourceBase plus the in-process entry points. It is defined with the
 * engines it starts, so no Resource can exist without them, and the
 * declaration layer below never imports upwards to reach them.
 */
export class Resource extends ResourceBase {
  /** A lazy query over many records. */
  static all<T extends typeof Resource>(this: T, params: QueryParams = {}, baseScope?: unknown, options: ProxyOptions = {}): ResourceProxy<ModelOf<T>, Array<ModelOf<T>>> {
    return new ResourceProxy(this, params, { ...options, baseScope, single: false });
  }

  /** A lazy query for one record; reading it raises RecordNotFound when absent. */
  static find<T extends typeof Resource>(this: T, params: FindParams, baseScope?: unknown, options: ProxyOptions = {}): ResourceProxy<ModelOf<T>, ModelOf<T>> {
    return new ResourceProxy(this, params, { ...options, baseScope, single: true });
  }

  /** A pending create from a JSON:API payload (sideposting included); `save()` it. */
  static build<T extends typeof Resource>(this: T, payload: WritePayload, params: QueryParams = {}): WriteProxy<ModelOf<T>> {
    return new WriteProxy(this, payload, { action: 'create' }, params);
  }
}
