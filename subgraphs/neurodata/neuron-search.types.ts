import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { MAX_CONDITION_VALUES, MAX_CONDITIONS, MAX_CRITERIA_IDS, MAX_CRITERIA_ROIS, MAX_REGEX_CHARS } from './neuron-search.rules.js';
import { DatasetNeuronDetail } from './synapse-read.types.js';

@InputType({ description: 'A condition on one field of the neurons: any of these exact values, or a regular expression.' })
export class NeuronFieldConditionInput {
  @Field(() => String, { description: 'a field of the version (GET .../neurons/fields): type, instance, class, super_class, status, side, transmitter, ... or a column of the annotation source' })
  field!: string;

  @Field(() => [String], { nullable: true, description: `any of these values, exactly (an empty string: neurons without a value); at most ${MAX_CONDITION_VALUES}` })
  values?: string[] | null;

  @Field(() => String, { nullable: true, description: `a regular expression (RE2 syntax) the whole value matches, as neuPrint's regex=True; at most ${MAX_REGEX_CHARS} characters` })
  regex?: string | null;
}

@InputType({ description: "Which neurons (neuprint-python's NeuronCriteria): every condition given must hold." })
export class NeuronCriteriaInput {
  @Field(() => [String], { nullable: true, description: `only these neuron ids (bodyId, root_id), as text; at most ${MAX_CRITERIA_IDS}` })
  ids?: string[] | null;

  @Field(() => [NeuronFieldConditionInput], { nullable: true, description: `conditions on fields, all of which hold; at most ${MAX_CONDITIONS}` })
  where?: NeuronFieldConditionInput[] | null;

  @Field(() => [String], { nullable: true, description: `ROIs the neuron has a synapse in (an ROI counts its primary descendants); at most ${MAX_CRITERIA_ROIS} per list` })
  rois?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'ROIs the neuron has at least min_roi_inputs postsynaptic sites in' })
  input_rois?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'ROIs the neuron has at least min_roi_outputs presynaptic sites in' })
  output_rois?: string[] | null;

  @Field(() => String, { nullable: true, description: 'all (the default): every ROI condition holds; any: at least one does' })
  roi_req?: string | null;

  @Field(() => Int, { nullable: true, description: 'default 1' })
  min_roi_inputs?: number | null;

  @Field(() => Int, { nullable: true, description: 'default 1' })
  min_roi_outputs?: number | null;

  @Field(() => Int, { nullable: true, description: 'at least this many presynaptic sites in all' })
  min_pre?: number | null;

  @Field(() => Int, { nullable: true, description: 'at least this many postsynaptic sites in all' })
  min_post?: number | null;

  @Field(() => String, { nullable: true, description: 'x0,y0,z0,x1,y1,z1: the soma lies in this box (corners inclusive), in unit' })
  soma_bbox?: string | null;

  @Field(() => String, { nullable: true, description: 'voxel | nm | um: the unit of soma_bbox (required with it)' })
  unit?: string | null;
}

@ObjectType({ description: 'A page of the neurons that match criteria, in neuron_id order (as text), each as GET .../neurons/{neuron_id} answers it.' })
export class DatasetNeuronSearchPage {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => [DatasetNeuronDetail])
  items!: DatasetNeuronDetail[];

  @Field(() => Float, { description: 'neurons that match, before paging (an integer)' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => String, { nullable: true, description: 'pass as after for the next page; null on the last page' })
  next!: string | null;

  @Field(() => Boolean, { description: 'true when more neurons match than this page holds (next is set)' })
  truncated!: boolean;
}

@ObjectType({ description: 'A value of a neuron field with how many neurons have it.' })
export class NeuronFieldValue {
  @Field(() => String)
  value!: string;

  @Field(() => Float)
  count!: number;
}

@ObjectType({ description: "A field a version's neurons can be searched by." })
export class NeuronField {
  @Field(() => String, { description: 'the name a criteria condition gives' })
  field!: string;

  @Field(() => String, { description: 'annotation (a typed annotation), extra (another column of the annotation source) or cell (the neurons table of a version without annotations)' })
  source!: string;

  @Field(() => Float, { description: 'neurons with a value' })
  neurons!: number;

  @Field(() => Float, { description: 'distinct values' })
  distinct!: number;

  @Field(() => [NeuronFieldValue], { description: 'the commonest values, most frequent first (then by value); at most 20' })
  top!: NeuronFieldValue[];
}

@ObjectType({ description: "What a version's neurons can be searched by." })
export class DatasetNeuronFields {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => Boolean, { description: "true when the version has neuron annotations (the fields are theirs); false: its neurons table's" })
  annotated!: boolean;

  @Field(() => Boolean, { description: 'true when the version has per-neuron ROI counts (rois, input_rois, output_rois, min_pre, min_post apply)' })
  roi_counts!: boolean;

  @Field(() => [NeuronField])
  items!: NeuronField[];
}

@ObjectType({ description: 'The weight of one connection between two neurons, in one ROI or over the ROIs read.' })
export class AdjacencyRow {
  @Field(() => String)
  pre!: string;

  @Field(() => String)
  post!: string;

  @Field(() => String, { nullable: true, description: 'the primary ROI, empty outside every primary ROI; null when the rows are per pair (group_by_roi false)' })
  roi!: string | null;

  @Field(() => Float, { description: 'synapses (or the source connection weight) of the pair in the ROI, or over the ROIs read' })
  weight!: number;
}

@ObjectType({ description: 'A page of the connections between two neuron sets, ordered by pre, post and roi.' })
export class DatasetAdjacencyPage {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => [AdjacencyRow])
  items!: AdjacencyRow[];

  @Field(() => Float, { description: 'rows before paging (an integer)' })
  total!: number;

  @Field(() => Float, { description: 'the weight of every row, before paging' })
  total_weight!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => String, { nullable: true, description: 'pass as after for the next page; null on the last page' })
  next!: string | null;

  @Field(() => Boolean, { description: 'true when more rows match than this page holds (next is set)' })
  truncated!: boolean;
}

@ObjectType({ description: 'A partner every neuron of a set connects with.' })
export class CommonPartner {
  @Field(() => String)
  neuron_id!: string;

  @Field(() => Float, { description: 'its weight to (downstream) or from (upstream) the whole set, over the ROIs read' })
  weight!: number;
}

@ObjectType({ description: 'The partners common to every neuron of a set, by neuron_id, a page at a time.' })
export class DatasetCommonPartnersPage {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => Float, { description: 'neurons in the set (an integer); no partner is common to an empty set' })
  members!: number;

  @Field(() => [CommonPartner])
  items!: CommonPartner[];

  @Field(() => Float, { description: 'common partners before paging (an integer)' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => String, { nullable: true, description: 'pass as after for the next page; null on the last page' })
  next!: string | null;

  @Field(() => Boolean, { description: 'true when more partners match than this page holds' })
  truncated!: boolean;
}

@ArgsType()
export class AdjacencyArgs {
  @Field(() => NeuronCriteriaInput, { nullable: true, description: 'the presynaptic neurons; any neuron when absent' })
  sources?: NeuronCriteriaInput;

  @Field(() => NeuronCriteriaInput, { nullable: true, description: 'the postsynaptic neurons; any neuron when absent' })
  targets?: NeuronCriteriaInput;

  @Field(() => [String], { nullable: true, description: 'only these ROIs (each counts its primary descendants; none: outside every ROI); every ROI when absent' })
  rois?: string[];

  @Field(() => Float, { nullable: true, description: 'only rows of at least this weight in their ROI (with group_by_roi)' })
  min_roi_weight?: number;

  @Field(() => Float, { nullable: true, description: 'only pairs whose weight over every ROI is at least this, whatever rois keeps' })
  min_total_weight?: number;

  @Field(() => [String], { nullable: true, description: "only connections of these predicted transmitters (gaba, ach, glut, ...; the dataset's per-ROI connections)" })
  transmitter?: string[];

  @Field(() => Boolean, { nullable: true, description: 'true (the default): a row per pair and ROI; false: a row per pair, its weight summed over the ROIs read' })
  group_by_roi?: boolean;
}

@ObjectType({ description: 'The connectivity from the neurons of one field value to those of another.' })
export class FieldConnectivity {
  @Field(() => String, { description: "the presynaptic neurons' value of row_field; empty for those without one" })
  pre_value!: string;

  @Field(() => String, { description: "the postsynaptic neurons' value of column_field" })
  post_value!: string;

  @Field(() => Float, { description: 'the weight of every connection between them, over the ROIs read' })
  weight!: number;

  @Field(() => Float, { description: 'connected pairs of neurons (an integer)' })
  pairs!: number;
}

@ObjectType({ description: 'Connectivity aggregated by a field of the neurons on each side (type × type, class × class, ...), by the two values, a page at a time.' })
export class DatasetConnectivityByField {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => Boolean)
  draft!: boolean;

  @Field(() => String)
  row_field!: string;

  @Field(() => String)
  column_field!: string;

  @Field(() => [FieldConnectivity])
  items!: FieldConnectivity[];

  @Field(() => Float, { description: 'cells of the table (value pairs with a connection) before paging' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => String, { nullable: true, description: 'pass as after for the next page; null on the last page' })
  next!: string | null;

  @Field(() => Boolean, { description: 'true when the table has more cells than this page holds' })
  truncated!: boolean;
}
