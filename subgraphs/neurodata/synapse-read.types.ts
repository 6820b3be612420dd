import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../schema/scalars.js';

@ObjectType({ description: 'One synapse of a synapse-level connectome.' })
export class DatasetSynapse {
  @Field(() => String, { description: "the source's id as text, or <file>:<row> when the source has none" })
  synapse_id!: string;

  @Field(() => String, { nullable: true, description: 'the presynaptic neuron; null when the source does not say (a postsynaptic site alone)' })
  pre!: string | null;

  @Field(() => String, { nullable: true, description: 'the postsynaptic neuron; null when the source does not say (a T-bar alone)' })
  post!: string | null;

  @Field(() => Float, { description: "in the dataset's coordinate_unit" })
  x!: number;

  @Field(() => Float)
  y!: number;

  @Field(() => Float)
  z!: number;

  @Field(() => String, { nullable: true, description: 'the primary ROI it lies in; null outside every ROI' })
  roi!: string | null;

  @Field(() => Float, { nullable: true, description: "the detection's confidence (neuPrint), 0..1" })
  confidence!: number | null;

  @Field(() => Float, { nullable: true, description: 'synaptic cleft score (FlyWire)' })
  cleft_score!: number | null;

  @Field(() => Float, { nullable: true, description: 'partner assignment score (FlyWire)' })
  connection_score!: number | null;

  @Field(() => Float, { nullable: true, description: "the synapse's size as the source measures it (CAVE: voxels)" })
  size!: number | null;

  @Field(() => String, { nullable: true, description: 'the predicted transmitter; null when unknown' })
  transmitter!: string | null;

  @Field(() => Float, { nullable: true, description: 'predicted probability of GABA' })
  gaba!: number | null;

  @Field(() => Float, { nullable: true, description: 'of acetylcholine' })
  ach!: number | null;

  @Field(() => Float, { nullable: true, description: 'of glutamate' })
  glut!: number | null;

  @Field(() => Float, { nullable: true, description: 'of octopamine' })
  oct!: number | null;

  @Field(() => Float, { nullable: true, description: 'of serotonin' })
  ser!: number | null;

  @Field(() => Float, { nullable: true, description: 'of dopamine' })
  da!: number | null;
}

@ObjectType({ description: 'A page of the synapses of a dataset version, ordered by pre, post and synapse_id (an unknown side first).' })
export class DatasetSynapsePage {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int, { description: 'the version read' })
  version!: number;

  @Field(() => Boolean, { description: 'true when the open draft was read' })
  draft!: boolean;

  @Field(() => [DatasetSynapse])
  items!: DatasetSynapse[];

  @Field(() => Float, { description: 'synapses that pass the filters, before paging (an integer)' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => String, { nullable: true, description: 'pass as after= for the next page; null on the last page' })
  next!: string | null;
}

@ObjectType({ description: 'Synapse counts: presynaptic sites (pre) and postsynaptic sites (post).' })
export class SynapseCounts {
  @Field(() => Float)
  pre!: number;

  @Field(() => Float)
  post!: number;
}

@ObjectType({ description: "One ROI of a version's hierarchy, with its synapse counts." })
export class DatasetRoi {
  @Field(() => String)
  roi!: string;

  @Field(() => String, { nullable: true, description: 'null for a root' })
  parent!: string | null;

  @Field(() => Boolean, { description: 'primary ROIs do not overlap: a synapse lies in at most one, and synapses carry only these' })
  primary!: boolean;

  @Field(() => String)
  description!: string;

  @Field(() => String, { nullable: true, description: 'the brain-region ontology term it maps to, e.g. FBbt:00003924; null when none' })
  term!: string | null;

  @Field(() => Float, {
    nullable: true,
    description: 'presynaptic sites in it (a non-primary ROI: the sum over its primary descendants); null for an ROI inside a primary one, whose synapses count there',
  })
  pre!: number | null;

  @Field(() => Float, { nullable: true, description: 'postsynaptic sites in it, as pre' })
  post!: number | null;
}

@ObjectType({ description: 'The ROI hierarchy of a dataset version with per-ROI synapse counts.' })
export class DatasetRois {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => [DatasetRoi], { description: 'by name' })
  items!: DatasetRoi[];

  @Field(() => SynapseCounts, { description: 'synapses outside every ROI (roi=none in the synapse filters)' })
  outside_rois!: SynapseCounts;
}

@ObjectType({ description: "A neuron's synapse counts in one ROI." })
export class NeuronRoiCounts {
  @Field(() => String, { description: 'a primary ROI' })
  roi!: string;

  @Field(() => Float, { description: 'presynaptic sites (T-bars) of the neuron in it' })
  pre!: number;

  @Field(() => Float, { description: 'postsynaptic sites of the neuron in it' })
  post!: number;

  @Field(() => Float, { description: 'synaptic inputs' })
  upstream!: number;

  @Field(() => Float, { nullable: true, description: 'synaptic outputs to known partners; null when its presynaptic sites come without partners' })
  downstream!: number | null;
}

@ObjectType({ description: 'A soma position in the dataset coordinate space.' })
export class SomaPosition {
  @Field(() => Float)
  x!: number;

  @Field(() => Float)
  y!: number;

  @Field(() => Float)
  z!: number;
}

@ObjectType({ description: 'One neuron of a dataset version: its neurons row, annotations and per-ROI synapse counts.' })
export class DatasetNeuronDetail {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => String)
  neuron_id!: string;

  @Field(() => String, { nullable: true, description: 'the neurons row: null when the neuron has only annotations or ROI counts' })
  name!: string | null;

  @Field(() => String, { nullable: true })
  cell_class!: string | null;

  @Field(() => String, { nullable: true })
  cell_type!: string | null;

  @Field(() => String, { nullable: true })
  neurotransmitter!: string | null;

  @Field(() => Boolean, { nullable: true })
  is_neuron!: boolean | null;

  @Field(() => String, { nullable: true })
  region!: string | null;

  @Field(() => Float, { nullable: true })
  x!: number | null;

  @Field(() => Float, { nullable: true })
  y!: number | null;

  @Field(() => Float, { nullable: true })
  z!: number | null;

  @Field(() => String, { nullable: true, description: 'annotations (null when not annotated or unknown): the instance name (neuPrint)' })
  instance!: string | null;

  @Field(() => String, { nullable: true, description: 'cell type' })
  type!: string | null;

  @Field(() => String, { nullable: true })
  class!: string | null;

  @Field(() => String, { nullable: true })
  super_class!: string | null;

  @Field(() => String, { nullable: true })
  sub_class!: string | null;

  @Field(() => String, { nullable: true })
  hemilineage!: string | null;

  @Field(() => String, { nullable: true })
  side!: string | null;

  @Field(() => String, { nullable: true, description: 'proofreading status' })
  status!: string | null;

  @Field(() => String, { nullable: true, description: 'predicted transmitter' })
  transmitter!: string | null;

  @Field(() => Float, { nullable: true })
  transmitter_confidence!: number | null;

  @Field(() => SomaPosition, { nullable: true })
  soma!: SomaPosition | null;

  @Field(() => JSONObjectScalar, { description: "the source's other annotation columns, as text" })
  extra!: Record<string, string>;

  @Field(() => [NeuronRoiCounts], { description: 'per primary ROI, by name' })
  rois!: NeuronRoiCounts[];

  @Field(() => NeuronRoiCounts, { nullable: true, description: 'outside every ROI (its roi is empty); null when none' })
  outside_rois!: NeuronRoiCounts | null;
}
