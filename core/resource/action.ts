/** The five things a client may do with a Resource; endpoints serve and guards cover some of them. */
export type Action = 'index' | 'show' | 'create' | 'update' | 'destroy';
/**
 * Every action, in the order endpoints list them: what a Resource's endpoint serves unless
 * `primaryEndpoint` names fewer.
 */
export const ALL_ACTIONS: readonly Action[] = ['index', 'show', 'create', 'update', 'destroy'];
