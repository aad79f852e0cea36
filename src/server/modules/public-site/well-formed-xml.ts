// For the sitemap's tests: a small, strict reader of well-formed XML 1.0 (no DTD) into a tree, which
// throws on anything malformed — an unescaped `&` or `<`, a tag closed out of order, an undeclared
// namespace prefix, text outside the root. No XML parser is among the dependencies, and none is needed
// in production: the server only writes XML.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Replaces references in text; throws on a bare `&` or an unknown entity. */
function resolveReferences(text: string, where: string): string {
  return text.replace(/&([^;&\s]*)(;?)/g, (whole, name: string, semicolon: string) => {
    if (!semicolon) throw new Error(`${where}: a bare & in ${JSON.stringify(text.slice(0, 80))}`);
    const numeric = /^#(?:x([0-9a-fA-F]+)|(\d+))$/.exec(name);
    if (numeric)
      return String.fromCodePoint(numeric[1] ? Number.parseInt(numeric[1], 16) : Number(numeric[2]));
    const value = PREDEFINED[name];
    if (value === undefined) throw new Error(`${where}: unknown entity ${whole}`);
    return value;
  });
}

/** Parses a whole document; throws an Error saying where it is not well-formed. */
export function parseXml(text: string): XmlElement {
  let at = 0;
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end === -1 || !/^<\?xml version="1\.0"( encoding="UTF-8")?\?>$/.test(text.slice(0, end + 2)))
      throw new Error('a malformed XML declaration');
    at = end + 2;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: those are the characters XML cannot hold
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(text))
    throw new Error('a character XML cannot hold');
  const stack: { element: XmlElement; namespaces: Set<string> }[] = [];
  let root: XmlElement | null = null;

  const checkPrefix = (name: string, namespaces: Set<string>, where: string) => {
    const colon = name.indexOf(':');
    if (colon === -1) return;
    const prefix = name.slice(0, colon);
    if (prefix !== 'xmlns' && prefix !== 'xml' && !namespaces.has(prefix))
      throw new Error(`${where}: the prefix ${prefix} is not declared`);
  };

  while (at < text.length) {
    const next = text.indexOf('<', at);
    const chunk = text.slice(at, next === -1 ? text.length : next);
    if (chunk) {
      if (chunk.includes('>') && /\]\]>/.test(chunk)) throw new Error('"]]>" in text');
      const top = stack.at(-1);
      if (top) top.element.children.push(resolveReferences(chunk, `in <${top.element.name}>`));
      else if (chunk.trim()) throw new Error(`text outside the root: ${JSON.stringify(chunk.slice(0, 40))}`);
    }
    if (next === -1) break;
    at = next;
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1 || text.slice(at + 4, end).includes('--')) throw new Error('a malformed comment');
      at = end + 3;
      continue;
    }
    if (text.startsWith('<!', at) || text.startsWith('<?', at))
      throw new Error(`unexpected ${text.slice(at, at + 9)}`);
    if (text.startsWith('</', at)) {
      const match = NAME.exec(text.slice(at + 2));
      const name = match?.[0] ?? '';
      const end = text.indexOf('>', at);
      if (!match || end === -1 || text.slice(at + 2 + name.length, end).trim() !== '')
        throw new Error(`a malformed end tag at ${at}`);
      const open = stack.pop();
      if (!open || open.element.name !== name)
        throw new Error(`</${name}> closes <${open?.element.name ?? 'nothing'}>`);
      at = end + 1;
      continue;
    }
    const match = NAME.exec(text.slice(at + 1));
    if (!match) throw new Error(`a malformed tag at ${at}: ${JSON.stringify(text.slice(at, at + 20))}`);
    const element: XmlElement = { name: match[0], attributes: {}, children: [] };
    at += 1 + match[0].length;
    // Attributes: name="value" or name='value', each separated by white space.
    let selfClosing = false;
    for (;;) {
      const space = /^\s*/.exec(text.slice(at))?.[0] ?? '';
      at += space.length;
      if (text.startsWith('/>', at)) {
        selfClosing = true;
        at += 2;
        break;
      }
      if (text.startsWith('>', at)) {
        at += 1;
        break;
      }
      if (!space) throw new Error(`<${element.name}>: attributes must be separated by white space`);
      const attribute = /^([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/.exec(text.slice(at));
      if (!attribute?.[1]) throw new Error(`<${element.name}>: a malformed attribute at ${at}`);
      const name = attribute[1];
      if (name in element.attributes) throw new Error(`<${element.name}>: ${name} given twice`);
      element.attributes[name] = resolveReferences(
        attribute[2] ?? attribute[3] ?? '',
        `<${element.name} ${name}>`,
      );
      at += attribute[0].length;
    }
    const namespaces = new Set(stack.at(-1)?.namespaces ?? []);
    for (const name of Object.keys(element.attributes))
      if (name.startsWith('xmlns:')) namespaces.add(name.slice('xmlns:'.length));
    checkPrefix(element.name, namespaces, `<${element.name}>`);
    for (const name of Object.keys(element.attributes))
      checkPrefix(name, namespaces, `<${element.name} ${name}>`);
    const parent = stack.at(-1);
    if (parent) parent.element.children.push(element);
    else if (root) throw new Error(`a second root element <${element.name}>`);
    else root = element;
    if (!selfClosing) stack.push({ element, namespaces });
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)?.element.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element named `name` under `element` (itself included), in document order. */
export function elementsNamed(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = element.name === name ? [element] : [];
  for (const child of element.children)
    if (typeof child !== 'string') found.push(...elementsNamed(child, name));
  return found;
}

/** An element's text, its descendants' included. */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}

/** The text of the first child element named `name`, or undefined. */
export function childText(element: XmlElement, name: string): string | undefined {
  const child = element.children.find(
    (item): item is XmlElement => typeof item !== 'string' && item.name === name,
  );
  return child ? textOf(child) : undefined;
}
