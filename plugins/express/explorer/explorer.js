import { fill, h } from './dom.js';
import { documentView } from './document-view.js';
import { queryControls, readQuery } from './query-form.js';
import { parseHeaders, queryUrl } from './query-url.js';
import { resourceDetails } from './schema-view.js';
import { parseServerTiming, timingsView } from './server-timing.js';

/**
 * The explorer page. It reads the schema the server lets this user see, and
 * runs every query with the browser's own credentials (cookies go with
 * same-origin requests) plus the headers typed above: the API's guards
 * apply exactly as to any client.
 */
const $ = (id) => document.getElementById(id);
const explorerBase = location.pathname.replace(/\/$/, '');
const state = { mount: '', schema: undefined, resource: undefined, headers: {} };

async function get(url, accept) {
  const response = await fetch(url, { headers: { Accept: accept, ...state.headers }, credentials: 'same-origin' });
  const text = await response.text();
  return { response, text };
}

async function loadSchema() {
  const { response, text } = await get(`${explorerBase}/schema.json`, 'application/json');
  if (!response.ok) throw new Error(`GET ${explorerBase}/schema.json answered ${response.status}: ${text.slice(0, 300)}`);
  const document = JSON.parse(text);
  state.mount = document.mount;
  state.schema = document.schema;
  $('namespace').textContent = `${document.mount}${document.namespace}` || '/';
  fill($('resources'), document.schema.resources.map((resource) => h('li', {},
    h('button', { type: 'button', 'data-resource': resource.name, onclick: () => select(resource.name) },
      h('span', { className: 'type' }, resource.type), ' ', h('span', { className: 'name' }, resource.name)))));
  const again = state.resource && document.schema.resources.find((r) => r.name === state.resource.name);
  select((again ?? document.schema.resources[0])?.name, false);
  await loadDiagram();
}

async function loadDiagram() {
  const { response, text } = await get(`${explorerBase}/diagram.svg`, 'image/svg+xml');
  if (!response.ok) return;
  // parsed as SVG, never as HTML: the drawing has no script, and the page's CSP forbids inline ones anyway
  const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
  fill($('diagram-image'), document.importNode(svg, true));
}

function endpointOf(name) {
  const entries = Object.entries(state.schema.endpoints);
  const index = entries.find(([, e]) => e.actions.index?.resource === name);
  const any = index ?? entries.find(([, e]) => Object.values(e.actions).some((a) => a.resource === name));
  return any ? { path: any[0], actions: Object.keys(any[1].actions), index: Boolean(index) } : { path: '', actions: [], index: false };
}

function select(name, focus = true) {
  const resource = state.schema.resources.find((r) => r.name === name);
  if (!resource) return;
  state.resource = resource;
  for (const button of $('resources').querySelectorAll('button')) {
    button.setAttribute('aria-current', String(button.dataset.resource === name));
  }
  const endpoint = endpointOf(name);
  $('resource-title').textContent = `${resource.type} (${resource.name})`;
  fill($('resource-details'), resourceDetails(resource, { ...endpoint, select }));
  $('resource').hidden = false;
  $('query').hidden = !endpoint.index;
  fill($('query-form'), queryControls(resource, state.schema.resources));
  showBuiltUrl();
  if (focus) $('resource-title').focus();
}

function builtUrl() {
  return queryUrl(`${state.mount}${endpointOf(state.resource.name).path}`, state.resource.type, readQuery($('query-form')));
}

function showBuiltUrl() {
  if (state.resource) $('built-url').textContent = builtUrl();
}

async function run(url) {
  $('result').hidden = false;
  $('request-url').textContent = url;
  $('status').textContent = 'loading…';
  $('status').className = '';
  $('result').setAttribute('aria-busy', 'true');
  fill($('document'));
  showTimings([]);
  try {
    const { response, text } = await get(url, 'application/vnd.api+json');
    $('status').textContent = `${response.status} ${response.statusText}`;
    $('status').className = response.ok ? 'ok' : 'failed';
    showTimings(parseServerTiming(response.headers.get('Server-Timing')));
    let document;
    try {
      document = text ? JSON.parse(text) : undefined;
    } catch {
      fill($('document'), h('pre', {}, text));
      return;
    }
    fill($('document'), documentView(document, { follow: run }));
  } catch (error) {
    $('status').textContent = 'network error';
    fill($('document'), h('p', { role: 'alert', className: 'errors' }, String(error)));
  } finally {
    $('result').setAttribute('aria-busy', 'false');
  }
}

/** The answer's Server-Timing metrics, when the router sends them (`serverTiming`, on in development). */
function showTimings(metrics) {
  $('timings').hidden = metrics.length === 0;
  fill($('timings-table'), metrics.length > 0 && timingsView(metrics));
}

$('resource-title').tabIndex = -1;
$('query-form').addEventListener('input', showBuiltUrl);
$('query-form').addEventListener('change', showBuiltUrl);
$('query-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(builtUrl());
});
$('headers-form').addEventListener('submit', (event) => {
  event.preventDefault();
  state.headers = parseHeaders($('headers').value);
  void loadSchema().catch(showLoadError);
});

function showLoadError(error) {
  $('load-error').hidden = false;
  $('load-error').textContent = `The explorer could not load the schema: ${error.message}`;
}

loadSchema().catch(showLoadError);
