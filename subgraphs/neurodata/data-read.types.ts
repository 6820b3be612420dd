import { Field, Float, ID, Int, ObjectType, type ClassType } from 'type-graphql';
import { PageOf } from '../../schema/page.types.js';

@ObjectType({ description: 'One cell of a dataset version: the columns of its neurons.csv.' })
export class DatasetNeuron {
  @Field(() => String, { description: "the cell's id within the dataset (text: FlyWire's 18-digit root ids stay exact)" })
  neuron_id!: string;

  @Field(() => String, { description: 'the name as the source writes it; empty when it has none' })
  name!: string;

  @Field(() => String, { description: 'empty when unknown' })
  cell_class!: string;

  @Field(() => String, { description: 'sensory, interneuron, motor, ... (muscle, glia, other for non-neurons); empty when unknown' })
  cell_type!: string;

  @Field(() => String, { description: "transmitters joined with '|'; empty when none is known" })
  neurotransmitter!: string;

  @Field(() => Boolean, { description: 'false for the other cells kept as connection targets (muscles, glia, ...)' })
  is_neuron!: boolean;

  @Field(() => String, { description: "code of the cell's brain region; empty when not given" })
  region!: string;

  @Field(() => Float, { nullable: true, description: "soma position in the dataset's coordinate space; null when not given" })
  x!: number | null;

  @Field(() => Float, { nullable: true })
  y!: number | null;

  @Field(() => Float, { nullable: true })
  z!: number | null;
}

@ObjectType({ description: 'One connection: chemical rows are directed; an electrical row stands for its unordered pair (pre <= post).' })
export class DatasetConnection {
  @Field(() => String)
  pre!: string;

  @Field(() => String)
  post!: string;

  @Field(() => String, { description: 'chemical | electrical' })
  synapse_type!: string;

  @Field(() => Float, { description: "in the dataset's weight unit (usually a synapse count)" })
  weight!: number;

  @Field(() => String, { nullable: true, description: "with group_by=roi the row's primary ROI (empty: outside every ROI); null otherwise" })
  roi!: string | null;
}

/** A page of one table of a dataset version, naming the version it read. */
function VersionPageOf<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class VersionPage extends PageOf(item) {
    @Field(() => ID)
    dataset_id!: string;

    @Field(() => Int, { description: 'the version read' })
    version!: number;

    @Field(() => Boolean, { description: 'true when the open draft was read' })
    draft!: boolean;
  }
  return VersionPage;
}

@ObjectType({ description: 'A page of the neurons of a dataset version, ordered by neuron_id.' })
export class DatasetNeuronPage extends VersionPageOf(DatasetNeuron) {}

@ObjectType({ description: 'A page of the connections of a dataset version, ordered by pre, post and synapse_type.' })
export class DatasetConnectionPage extends VersionPageOf(DatasetConnection) {}

@ObjectType({ description: 'Every matching row of a dataset version as an Apache Arrow IPC stream, ready to be streamed once by the .arrow routes.' })
export class DatasetRowsExport {
  @Field(() => ID)
  dataset_id!: string;

  @Field(() => Int)
  version!: number;

  @Field(() => String, { description: 'the object holding the stream (removed once streamed)' })
  object_key!: string;

  @Field(() => Float, { description: 'rows in the stream' })
  rows!: number;

  @Field(() => Float, { description: 'bytes of the stream' })
  size!: number;

  @Field(() => String)
  sha256!: string;

  @Field(() => String)
  filename!: string;
}
