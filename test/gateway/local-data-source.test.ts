import { describe, it, expect } from 'vitest';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { CachingLocalDataSource } from '../../gateway/local-data-source.js';

const schema = buildSchema('type Query { hello(name: String): String }');

/** The data source, and a way to send it an operation as the gateway does. */
function source(max?: number) {
  const s = new CachingLocalDataSource(schema as GraphQLSchema, undefined, max);
  const run = (query: string, variables?: Record<string, unknown>) =>
    s.process({ kind: 'incoming operation', request: { query, variables }, context: {}, incomingRequestContext: {} } as never);
  return { s, run };
}

describe(CachingLocalDataSource.name, () => {
  it('answers as graphql() does: data, syntax errors and validation errors', async () => {
    const { run } = source();
    const direct = (query: string) => graphql({ schema, source: query });
    for (const query of ['{ __typename hello }', '{ hello(', '{ nope }', 'query($n: Int) { hello(name: $n) }']) {
      const got = await run(query);
      const want = await direct(query);
      expect(JSON.parse(JSON.stringify(got))).toEqual(JSON.parse(JSON.stringify(want)));
    }
  });

  it('parses and validates each operation text once, within its bound', async () => {
    const { s, run } = source(2);
    const documents = (s as unknown as { documents: { size: number } }).documents;
    await run('{ __typename }');
    await run('{ __typename }');
    expect(documents.size).toBe(1);
    await run('{ nope }');
    expect(documents.size).toBe(1);
    await run('{ a: __typename }');
    await run('{ b: __typename }');
    expect(documents.size).toBe(2);
    expect((await run('{ __typename }')).data).toEqual({ __typename: 'Query' });
  });
});
