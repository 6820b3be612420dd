import { describe, it, expect, beforeAll } from 'vitest';
import { readFile } from 'node:fs/promises';
import { Kind, parse, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { composeSupergraph } from '../../gateway/compose.js';
import { schemaOnlyDeps } from '../../gateway/supergraph-file.js';
import { OPERATIONS } from '../operations.js';
import { OPERATION_TYPES_FILE, renderOperationTypes } from '../../scripts/web-operation-types.js';

describe("the pages' GraphQL operations", () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = (await composeSupergraph(schemaOnlyDeps())).apiSchema;
  });

  it.each(Object.entries(OPERATIONS))('%s is valid against the API schema and named as it is listed', (name, text) => {
    const document = parse(text);
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    expect(operations).toHaveLength(1);
    // The variants of one operation (the account page with and without ORCID) share its name.
    expect(name.startsWith(operations[0].name!.value)).toBe(true);
  });

  it('have the result and variable types web/operations.types.ts declares (run npm run web:types when this fails)', async () => {
    const committed = await readFile(OPERATION_TYPES_FILE, 'utf8');
    expect(committed, 'web/operations.types.ts is stale: run npm run web:types').toBe(renderOperationTypes(schema));
  });
});
