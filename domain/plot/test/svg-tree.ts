/**
 * Test helper: parses chart output with a real XML parser and offers the few queries the chart tests need.
 * Lives under test/ so the build leaves it (and its dev-only parser) out.
 */
import fxp from 'fast-xml-parser';
import { expect } from 'vitest';

export interface SvgNode {
  name: string;
  attrs: Record<string, string>;
  /** Direct text of the element, entities decoded (text of child elements not included). */
  text: string;
  children: SvgNode[];
}

function decode(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function toNode(name: string, value: unknown): SvgNode {
  if (typeof value !== 'object' || value === null) return { name, attrs: {}, text: decode(String(value ?? '')), children: [] };
  const node: SvgNode = { name, attrs: {}, text: '', children: [] };
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === '@') {
      for (const [a, v] of Object.entries(child as Record<string, unknown>)) node.attrs[a] = decode(String(v));
    } else if (key === '#text') node.text = decode(String(child));
    else for (const item of Array.isArray(child) ? child : [child]) node.children.push(toNode(key, item));
  }
  return node;
}

/** Parses a chart; fails the test when the output is not well-formed XML. */
export function parseSvg(svg: string): SvgNode {
  const valid = fxp.validate(svg);
  expect(valid, JSON.stringify(valid)).toBe(true);
  const doc = fxp.parse(svg, {
    ignoreAttributes: false,
    attrNodeName: '@',
    attributeNamePrefix: '',
    arrayMode: true,
    parseNodeValue: false,
    parseAttributeValue: false,
    trimValues: false,
  }) as Record<string, unknown[]>;
  expect(Object.keys(doc)).toEqual(['svg']);
  return toNode('svg', doc.svg![0]);
}

export function findAll(root: SvgNode, match: (n: SvgNode) => boolean): SvgNode[] {
  const found: SvgNode[] = [];
  const walk = (n: SvgNode) => {
    if (match(n)) found.push(n);
    n.children.forEach(walk);
  };
  walk(root);
  return found;
}

export const hasClass = (n: SvgNode, cls: string) => (n.attrs.class ?? '').split(' ').includes(cls);
export const byClass = (root: SvgNode, cls: string, name?: string) => findAll(root, (n) => hasClass(n, cls) && (!name || n.name === name));
export const byName = (root: SvgNode, name: string) => findAll(root, (n) => n.name === name);

/** The visible text of a <text>: its own text, without the tooltip <title>. */
export const shown = (n: SvgNode) => n.text;
/** The tooltip of an element, if any. */
export const tooltip = (n: SvgNode) => n.children.find((c) => c.name === 'title')?.text;

/** Labels of an axis, in document order. */
export function tickLabels(root: SvgNode, orient: 'left' | 'bottom'): string[] {
  const axis = findAll(root, (n) => hasClass(n, `axis-${orient}`))[0];
  return axis ? byClass(axis, 'tick-label').map(shown) : [];
}

/**
 * What every chart must satisfy: well-formed, standalone (namespace, viewBox), nothing computed went wrong
 * (no NaN, undefined or Infinity anywhere), and no markup came through from user text.
 */
export function expectSound(svg: string): SvgNode {
  const root = parseSvg(svg);
  expect(root.attrs.xmlns).toBe('http://www.w3.org/2000/svg');
  expect(root.attrs.viewBox).toMatch(/^0 0 \d+ \d+$/);
  expect(svg).not.toMatch(/NaN|undefined|Infinity/);
  expect(findAll(root, (n) => n.name === 'script' || n.name === 'foreignObject')).toEqual([]);
  expect(findAll(root, (n) => Object.keys(n.attrs).some((a) => a.startsWith('on')))).toEqual([]);
  return root;
}
