import { Dictionary, Int32, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';

/**
 * Three CAVE-layout synapses (FlyWire root ids above 2^53, a dictionary-encoded neuropil) as an Arrow IPC file written
 * by apache-arrow, whose writer puts the schema in the footer only: the stream inside starts with the dictionary.
 * Positions are `origin` plus 1, 2 and 3 along each axis.
 */
export function footerOnlyArrowSynapses(origin: [number, number, number] = [0, 3, 6]): Uint8Array {
  const at = (axis: number) => vectorFromArray([1, 2, 3].map((d) => origin[axis] + d), new Int32());
  return tableToIPC(
    new Table({
      id: vectorFromArray([1n, 2n, 3n]),
      pre_pt_root_id: vectorFromArray([720575940614418897n, 720575940614418897n, 720575940614418898n]),
      post_pt_root_id: vectorFromArray([720575940597856265n, 720575940597856266n, 720575940597856265n]),
      ctr_pt_position_x: at(0),
      ctr_pt_position_y: at(1),
      ctr_pt_position_z: at(2),
      neuropil: vectorFromArray(['GNG', 'AL_R', 'GNG'], new Dictionary(new Utf8(), new Int32())),
    }),
    'file',
  );
}
