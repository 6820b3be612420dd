import { print, type DocumentNode } from 'graphql';

const printed = new WeakMap<DocumentNode, string>();

/**
 * The text of a document built once and run many times (each REST route's operation): Apollo Server takes
 * operations as text and hashes the text to find its parsed and validated copy, so printing once per document
 * instead of once per request keeps that lookup cheap.
 */
export function documentText(document: DocumentNode): string {
  let text = printed.get(document);
  if (text === undefined) {
    text = print(document);
    printed.set(document, text);
  }
  return text;
}
