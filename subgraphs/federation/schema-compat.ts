import { createHash } from 'node:crypto';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { diff, CriticalityLevel } from '@graphql-inspector/core';

export interface SchemaChange {
  type: string;
  /** BREAKING | DANGEROUS | NON_BREAKING */
  criticality: string;
  message: string;
  path: string | null;
}

export interface Compatibility {
  compatible: boolean;
  identical: boolean;
  breaking: SchemaChange[];
  dangerous: SchemaChange[];
  non_breaking: SchemaChange[];
}

export const schemaHash = (sdl: string) => `sha256:${createHash('sha256').update(sdl, 'utf8').digest('hex')}`;

/** An SDL text as a schema, or the reason it is not one. */
export function parseSdl(sdl: string): { schema: GraphQLSchema } | { problem: string } {
  try {
    return { schema: buildSchema(sdl) };
  } catch (e) {
    return { problem: `the cluster's schema does not parse: ${(e as Error).message.split('\n')[0]}` };
  }
}

/**
 * How another cluster's API schema compares with ours, from the point of view of a client written against ours
 * (our schema is the old one, theirs the new): what we have and they lack or changed incompatibly is breaking;
 * what only they have is not. Compatible means a client of ours works against them.
 */
export async function compareSchemas(ours: GraphQLSchema, theirs: GraphQLSchema): Promise<Compatibility> {
  const changes = await diff(ours, theirs);
  const pick = (level: CriticalityLevel) =>
    changes
      .filter((c) => c.criticality.level === level)
      .map((c) => ({ type: String(c.type), criticality: level, message: c.message, path: c.path ?? null }))
      .sort((a, b) => (a.path ?? '').localeCompare(b.path ?? '') || a.message.localeCompare(b.message));
  const breaking = pick(CriticalityLevel.Breaking);
  return { compatible: breaking.length === 0, identical: changes.length === 0, breaking, dangerous: pick(CriticalityLevel.Dangerous), non_breaking: pick(CriticalityLevel.NonBreaking) };
}
