import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import type { SavedQueryService } from './saved-query.service.js';
import type { JobQueue } from '../../lib/jobs/index.js';
import { jobOut, Job } from '../../lib/jobs/jobs.types.js';
import { SavedFromSyql, SavedQuery, SavedQueryDeletion, SavedQueryIdArgs, CreateSavedQueryInput, SavedQueryFromSyqlInput, UpdateSavedQueryInput, SavedQueryListArgs, SavedQueryPage, SavedQueryRefresh } from './saved-query.types.js';
import { rootLookup } from '../../lib/root-lookup.js';

/** Saved queries (spec 4.3 Saved queries): Academic, each visible to its owner only. */
@Resolver()
export class SavedQueryResolver {
  constructor(
    private readonly service: SavedQueryService,
    private readonly queue: JobQueue,
  ) {}

  private async out(q: Awaited<ReturnType<SavedQueryService['get']>>): Promise<SavedQuery> {
    const last = q.lastJobId ? await this.queue.get(q.lastJobId) : undefined;
    return {
      id: q.id,
      name: q.name,
      description: q.description,
      query: q.syql,
      parameters: q.parameters,
      last_run_at: q.lastRunAt,
      last_job: last ? jobOut(last) : null,
      previous_job_id: q.previousJobId,
      created_at: q.createdAt,
      updated_at: q.updatedAt,
    };
  }

  @Query(() => SavedQueryPage, { description: 'Your saved queries, most recently changed first.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async savedQueries(@Ctx() ctx: RequestContext, @Args(() => SavedQueryListArgs) args: SavedQueryListArgs) {
    const page = await this.service.list(ctx, args);
    return { ...page, items: await Promise.all(page.items.map((q) => this.out(q))) };
  }

  @Mutation(() => SavedQuery, { description: 'Saves a query {name, description?, query, parameters?} (its syntax is checked; its datasets when it runs).' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async createSavedQuery(@Ctx() ctx: RequestContext, @Arg('input', () => CreateSavedQueryInput) input: CreateSavedQueryInput) {
    return this.out(await this.service.create(ctx, input));
  }

  @Mutation(() => SavedFromSyql, { description: 'Plans a query (everything checked) and saves its canonical text: {query, parameters?, name?, description?}.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async createSavedQueryFromSyql(@Ctx() ctx: RequestContext, @Arg('input', () => SavedQueryFromSyqlInput) input: SavedQueryFromSyqlInput) {
    const r = await this.service.createFromSyql(ctx, input);
    return { saved_query: await this.out(r.saved), plan: r.plan };
  }

  @Query(() => SavedQuery, rootLookup('A saved query with its last run.'))
  @Access(AccessClass.Academic, { token: 'compute' })
  async savedQuery(@Ctx() ctx: RequestContext, @Args(() => SavedQueryIdArgs) args: SavedQueryIdArgs) {
    return this.out(await this.service.get(ctx, args.id));
  }

  @Mutation(() => SavedQuery, { description: 'Changes name, description, query or parameters.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async updateSavedQuery(@Ctx() ctx: RequestContext, @Args(() => SavedQueryIdArgs) args: SavedQueryIdArgs, @Arg('input', () => UpdateSavedQueryInput) input: UpdateSavedQueryInput) {
    return this.out(await this.service.update(ctx, args.id, input));
  }

  @Mutation(() => SavedQueryDeletion, { description: 'Deletes a saved query (its jobs and results stay until deleted).' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async deleteSavedQuery(@Ctx() ctx: RequestContext, @Args(() => SavedQueryIdArgs) args: SavedQueryIdArgs) {
    return this.service.delete(ctx, args.id);
  }

  @Mutation(() => Job, { description: 'Runs it now as a job, on the versions its references name (@latest: the latest now); the job echoes them in input.pins.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async runSavedQuery(@Ctx() ctx: RequestContext, @Args(() => SavedQueryIdArgs) args: SavedQueryIdArgs) {
    return jobOut(await this.service.run(ctx, args.id));
  }

  @Mutation(() => SavedQueryRefresh, { description: 'Re-resolves @latest to the current versions and runs again; the previous result stays available.' })
  @Access(AccessClass.Academic, { token: 'compute' })
  async refreshSavedQuery(@Ctx() ctx: RequestContext, @Args(() => SavedQueryIdArgs) args: SavedQueryIdArgs) {
    const r = await this.service.refresh(ctx, args.id);
    return { saved_query: await this.out(r.saved), job: jobOut(r.job), previous_job: r.previous_job ? jobOut(r.previous_job) : null, versions: r.versions };
  }
}
