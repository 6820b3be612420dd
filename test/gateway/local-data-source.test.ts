import { describe, it, expect } from 'vitest';
import { buildSchema, graphql, parse, validate, GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { CachingLocalDataSource } from '../../gateway/local-data-source.js';

const schema = buildSchema(`
  type Query { hello(name: String): String, item(id: Int!): Item, items(n: Int = 2): [Item!]!, strict: Item!, failing: String }
  type Item { id: Int!, name: String, label: String!, tags: [String!] }
`);
const rootValue = {
  hello: ({ name }: { name?: string }) => `hello ${name ?? 'world'}`,
  item: ({ id }: { id: number }) => (id > 0 ? { id, name: `item ${id}`, label: id === 2 ? null : `L${id}`, tags: ['a', 'b'] } : null),
  items: ({ n }: { n: number }) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: null, label: `L${i + 1}`, tags: null })),
  strict: () => null,
  failing: () => {
    throw new GraphQLError('no such thing', { extensions: { code: 'NOT_FOUND' } });
  },
};

/** The data source, and a way to send it an operation as the gateway does. */
function source(opts: { maxDocuments?: number; compiled?: boolean } = {}) {
  const s = new CachingLocalDataSource(schema as GraphQLSchema, undefined, opts);
  // graphql-jit and graphql-js both read root fields off the root value; the gateway passes none, so the tests' root
  // resolvers stand in as the schema's own.
  const run = (query: string, variables?: Record<string, unknown>) =>
    s.process({ kind: 'incoming operation', request: { query, variables }, context: {}, incomingRequestContext: {} } as never);
  return { s, run };
}

for (const field of Object.keys(rootValue) as (keyof typeof rootValue)[]) {
  const def = schema.getQueryType()!.getFields()[field];
  def.resolve = (_root, args) => (rootValue[field] as (a: unknown) => unknown)(args);
}

const OPERATIONS: [string, Record<string, unknown>?][] = [
  ['{ __typename hello }'],
  ['{ hello(' ],
  ['{ nope }'],
  ['query($n: Int) { hello(name: $n) }'],
  ['query($name: String) { hello(name: $name) }', { name: 'you' }],
  ['query($id: Int!) { item(id: $id) { id name label tags } }', { id: 1 }],
  ['query($id: Int!) { item(id: $id) { id label } other: hello }', { id: 2 }],
  ['query($id: Int!) { item(id: $id) { id } }', { id: 0 }],
  ['query($id: Int!) { item(id: $id) { id } }', { id: 'x' }],
  ['query($id: Int!) { item(id: $id) { id } }'],
  ['{ items { id name label tags } three: items(n: 3) { id } }'],
  ['{ strict { id } hello }'],
  ['{ failing hello }'],
  ['query A { hello } query B { hello(name: "b") }'],
  ['{ hello @skip(if: true) item(id: 3) @include(if: true) { ... on Item { id } ...f } } fragment f on Item { name }'],
];

/**
 * graphql()'s answer with the codes Apollo Server gives the subgraph's own refusals: GRAPHQL_VALIDATION_FAILED for
 * an operation the schema refuses, BAD_USER_INPUT for variables refused before anything ran; a syntax error and
 * the resolvers' errors as they are.
 */
function withRefusalCodes(query: string, result: ExecutionResult): unknown {
  const json = JSON.parse(JSON.stringify(result));
  if ('data' in result || !json.errors) return json;
  let code: string | undefined = 'BAD_USER_INPUT';
  try {
    if (validate(schema, parse(query)).length > 0) code = 'GRAPHQL_VALIDATION_FAILED';
  } catch {
    code = undefined;
  }
  if (code) for (const e of json.errors) e.extensions = { code, ...e.extensions };
  return json;
}

describe(CachingLocalDataSource.name, () => {
  for (const compiled of [false, true]) {
    it(`answers as graphql() does, its refusals coded as Apollo Server codes them: data, errors, null propagation, syntax and validation errors${compiled ? ', compiled by graphql-jit' : ''}`, async () => {
      const { run } = source({ compiled });
      for (const [query, variables] of OPERATIONS) {
        const got = await run(query, variables);
        const want = await graphql({ schema, source: query, variableValues: variables });
        expect(JSON.parse(JSON.stringify(got)), query).toEqual(withRefusalCodes(query, want));
      }
    });
  }

  it('parses and validates each operation text once, within its bound', async () => {
    const { s, run } = source({ maxDocuments: 2 });
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

  it('compiles each operation once, within the same bound', async () => {
    const { s, run } = source({ maxDocuments: 2, compiled: true });
    const compiled = (s as unknown as { compiled: { size: number } }).compiled;
    for (let i = 0; i < 3; i++) expect((await run('{ hello }')).data).toEqual({ hello: 'hello world' });
    expect(compiled.size).toBe(1);
    await run('{ a: hello }');
    await run('{ b: hello }');
    expect(compiled.size).toBe(2);
  });
});
