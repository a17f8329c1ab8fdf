/**
 * `h('a', { href: '#x', onclick: fn }, 'text', child)`: an element with its
 * attributes, listeners and children. Text is always set as text, never as
 * markup, so what an API returns cannot inject into the page.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'className') element.className = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Empties `element` and fills it with `children`. */
export function fill(element, ...children) {
  element.replaceChildren();
  for (const child of children.flat(Infinity)) if (child) element.append(child);
  return element;
}

/** A small "guarded" badge: a guard decides per request. */
export function guardedBadge(title = 'A guard decides this per request') {
  return h('span', { className: 'badge guarded', title }, 'guarded');
}
