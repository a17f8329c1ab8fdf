import type { SimpleJsonDocument } from './simple-json.ts';

/** The simple JSON rendering as XML: arrays repeat their element, keys become tags. */
export function toXmlDocument(document: SimpleJsonDocument, rootType: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('response', { data: document.data, meta: document.meta }, rootType)}\n`;
}

function element(tag: string, value: unknown, itemTag: string): string {
  if (value === undefined) return '';
  if (value === null) return `<${tag} nil="true"/>`;
  if (Array.isArray(value)) {
    return `<${tag} type="array">${value.map((v) => element(singular(itemTag), v, itemTag)).join('')}</${tag}>`;
  }
  if (value instanceof Date) return `<${tag}>${value.toISOString()}</${tag}>`;
  if (typeof value === 'object') {
    const children = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(safeTag(k), v, k))
      .join('');
    return `<${tag}>${children}</${tag}>`;
  }
  return `<${tag}>${escape(String(value))}</${tag}>`;
}

function singular(tag: string): string {
  return safeTag(tag.endsWith('ies') ? tag.slice(0, -3) + 'y' : tag.endsWith('s') ? tag.slice(0, -1) : `${tag}-item`);
}

function safeTag(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
