import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { Access, AccessClass } from '../../lib/access.js';
import type { RequestContext } from '../../lib/context.js';
import { actorOf } from './dataset.mappers.js';
import type { DraftService } from './draft.service.js';
import { DatasetDraft } from './draft.types.js';

/** A draft's contents per table, its synapses, its ingest under way and what it lacks (docs/neurodata.md). */
@Resolver()
export class DraftResolver {
  constructor(private readonly drafts: DraftService) {}

  @Query(() => DatasetDraft, { description: "The open draft's tables, synapses, the file being ingested (with progress) and what publishing still needs: owners, maintainers, SuperUsers." })
  @Access(AccessClass.Academic)
  async datasetDraft(@Ctx() ctx: RequestContext, @Arg('dataset_id', () => String) datasetId: string): Promise<DatasetDraft> {
    const s = await this.drafts.summary(actorOf(ctx), datasetId);
    return {
      dataset_id: s.datasetId,
      version: s.version,
      tables: s.tables,
      synapses: s.synapses && {
        rows: s.synapses.synapses,
        with_both_partners: s.synapses.withBothPartners,
        points_only: s.synapses.pointsOnly,
        partners_not_neurons: s.synapses.partnersNotNeurons,
        neurons: s.synapses.neurons,
        rois: s.synapses.rois,
      },
      missing: s.missing,
      ingest: s.ingest && {
        filename: s.ingest.filename,
        kind: s.ingest.kind,
        stage: s.ingest.stage,
        rows: s.ingest.rows,
        bytes_read: s.ingest.bytesRead,
        bytes_total: s.ingest.bytesTotal,
        started_at: s.ingest.startedAt,
        updated_at: s.ingest.heartbeatAt,
      },
    };
  }
}
