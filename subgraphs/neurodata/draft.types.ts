import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Rows of one column table of the draft.' })
export class DraftTable {
  @Field(() => String, { description: 'neurons, connections, morphologies, synapses, roi_connections, neuron_annotations, neuron_rois, rois' })
  table!: string;

  @Field(() => Float, { description: 'rows in the draft' })
  rows!: number;
}

@ObjectType({ description: "What the draft's synapses hold." })
export class DraftSynapses {
  @Field(() => Float)
  rows!: number;

  @Field(() => Float, { description: 'synapses whose pre and post partners are both given' })
  with_both_partners!: number;

  @Field(() => Float, { description: 'per-neuron synapse points, given without their partner' })
  points_only!: number;

  @Field(() => Float, { description: "distinct partner ids that are not among the draft's neurons (unproofread segments, for FlyWire): their synapses are kept, and left out of the connections" })
  partners_not_neurons!: number;

  @Field(() => Float, { description: 'distinct neurons with at least one synapse' })
  neurons!: number;

  @Field(() => Int, { description: 'distinct ROIs the synapses lie in' })
  rois!: number;
}

@ObjectType({ description: 'A file being ingested into the draft now.' })
export class DraftIngest {
  @Field(() => String)
  filename!: string;

  @Field(() => String)
  kind!: string;

  @Field(() => String, { description: 'reading (rows are being read and written) | deriving (per-ROI connections and counts are being computed)' })
  stage!: string;

  @Field(() => Float)
  rows!: number;

  @Field(() => Float)
  bytes_read!: number;

  @Field(() => Float)
  bytes_total!: number;

  @Field(() => Date)
  started_at!: Date;

  @Field(() => Date, { description: 'the last progress report' })
  updated_at!: Date;
}

@ObjectType({ description: "A draft's contents, per table, and what it still lacks before it can be published." })
export class DatasetDraft {
  @Field(() => String)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => [DraftTable])
  tables!: DraftTable[];

  @Field(() => DraftSynapses, { nullable: true, description: 'null when the draft has no synapses, and while a file is ingested or the derived tables are built' })
  synapses!: DraftSynapses | null;

  @Field(() => [String], { description: 'what publishing still needs; empty when the draft can be published' })
  missing!: string[];

  @Field(() => DraftIngest, { nullable: true, description: 'the file being ingested now, with its progress; null when none is' })
  ingest!: DraftIngest | null;
}
