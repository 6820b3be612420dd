-- DataStore on one server (values as sent to ClickHouse 18.16, which has no query parameters)

/* DataStore.insertTsv */ INSERT INTO connections (dataset_id, version, pre, post, synapse_type, weight) FORMAT TabSeparated;

/* DataStore.rowCounts */ SELECT 'neurons' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'connections' AS t, count() AS n, countIf(synapse_type = 'chemical') AS chemical, countIf(synapse_type = 'electrical') AS electrical FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'morphologies' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM morphologies WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'synapses' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'roi_connections' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'neuron_annotations' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM neuron_annotations WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'rois' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM rois WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'neuron_rois' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM neuron_rois WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.connectionStats */ SELECT countIf(synapse_type = 'chemical') AS chemical, countIf(synapse_type = 'electrical') AS electrical,
  sumIf(weight, synapse_type = 'chemical') AS weight_chemical, sumIf(weight, synapse_type = 'electrical') AS weight_electrical,
  countIf(synapse_type = 'chemical' AND pre = post) AS loops_chemical, countIf(synapse_type = 'electrical' AND pre = post) AS loops_electrical
  FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.neuronIds */ SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) ORDER BY neuron_id;

/* DataStore.readNeurons */ SELECT neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) ORDER BY neuron_id LIMIT 100;

/* DataStore.readConnections */ SELECT pre, post, synapse_type, weight FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  ORDER BY pre, post, synapse_type LIMIT 100;

/* DataStore.scanConnections */ SELECT pre, post, toUInt8(synapse_type), weight FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.readNeurons */ SELECT neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND neuron_id IN ('AVAL', '720575940621039145') AND cell_class IN ('AVA') AND is_neuron = toUInt8(1) ORDER BY neuron_id LIMIT 200, 100;

/* DataStore.countNeurons */ SELECT count() AS n FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND neuron_id IN ('AVAL', '720575940621039145') AND cell_class IN ('AVA') AND is_neuron = toUInt8(1);

/* DataStore.exportNeurons */ SELECT *, 1 AS _arrow_export_row_end FROM (
SELECT neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND neuron_id IN ('AVAL', '720575940621039145') AND cell_class IN ('AVA') AND is_neuron = toUInt8(1) ORDER BY neuron_id
);

/* DataStore.readConnections */ SELECT pre, post, synapse_type, weight FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND (pre IN ('AVAL') OR post IN ('AVAL')) AND synapse_type = 'chemical' AND weight >= toFloat64(2.5)
  ORDER BY pre, post, synapse_type LIMIT 200, 100;

/* DataStore.countConnections */ SELECT count() AS n FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND (pre IN ('AVAL') OR post IN ('AVAL')) AND synapse_type = 'chemical' AND weight >= toFloat64(2.5);

/* DataStore.exportConnections */ SELECT *, 1 AS _arrow_export_row_end FROM (
SELECT pre, post, toString(synapse_type) AS synapse_name, weight FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND (pre IN ('AVAL') OR post IN ('AVAL')) AND synapse_type = 'chemical' AND weight >= toFloat64(2.5)
  ORDER BY pre, post, synapse_type
);

/* DataStore.morphologies */ SELECT neuron, file, object_key, sha256, n_points, n_soma_points, n_stems, n_bifurcations, n_tips, total_length,
  soma_x, soma_y, soma_z, min_x, min_y, min_z, max_x, max_y, max_z
  FROM morphologies WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) ORDER BY neuron, file;

/* DataStore.dropTableVersion */ ALTER TABLE neurons DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE connections DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE morphologies DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE synapses DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE synapses_by_post DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE roi_connections DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE roi_connections_by_roi DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE neuron_rois DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE neuron_annotations DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.dropTableVersion */ ALTER TABLE rois DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

/* DataStore.copyVersion */ INSERT INTO neurons (dataset_id, version, neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z) SELECT dataset_id, toUInt32(3), neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO connections (dataset_id, version, pre, post, synapse_type, weight) SELECT dataset_id, toUInt32(3), pre, post, synapse_type, weight FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO morphologies (dataset_id, version, neuron, file, object_key, sha256, n_points, n_soma_points, n_stems, n_bifurcations, n_tips, total_length, soma_x, soma_y, soma_z, min_x, min_y, min_z, max_x, max_y, max_z) SELECT dataset_id, toUInt32(3), neuron, file, object_key, sha256, n_points, n_soma_points, n_stems, n_bifurcations, n_tips, total_length, soma_x, soma_y, soma_z, min_x, min_y, min_z, max_x, max_y, max_z FROM morphologies WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO synapses (dataset_id, version, pre, post, synapse_id, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da) SELECT dataset_id, toUInt32(3), pre, post, synapse_id, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO synapses_by_post (dataset_id, version, pre, post, synapse_id, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da) SELECT dataset_id, toUInt32(3), pre, post, synapse_id, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da FROM synapses_by_post WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO roi_connections (dataset_id, version, pre, post, roi, weight, transmitter) SELECT dataset_id, toUInt32(3), pre, post, roi, weight, transmitter FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO roi_connections_by_roi (dataset_id, version, pre, post, roi, weight, transmitter) SELECT dataset_id, toUInt32(3), pre, post, roi, weight, transmitter FROM roi_connections_by_roi WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO neuron_rois (dataset_id, version, neuron_id, roi, pre, post, upstream, downstream) SELECT dataset_id, toUInt32(3), neuron_id, roi, pre, post, upstream, downstream FROM neuron_rois WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO neuron_annotations (dataset_id, version, neuron_id, instance, type, class, super_class, sub_class, hemilineage, side, status, transmitter, transmitter_confidence, soma_x, soma_y, soma_z, extra) SELECT dataset_id, toUInt32(3), neuron_id, instance, type, class, super_class, sub_class, hemilineage, side, status, transmitter, transmitter_confidence, soma_x, soma_y, soma_z, extra FROM neuron_annotations WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO rois (dataset_id, version, roi, parent, is_primary, description, term) SELECT dataset_id, toUInt32(3), roi, parent, is_primary, description, term FROM rois WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.checkSynapseIds */ SELECT synapse_id FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND synapse_id != '' GROUP BY synapse_id HAVING count() > 1 ORDER BY synapse_id LIMIT 1;

/* DataStore.synapseSummary */ SELECT count() AS synapses, countIf(pre != '' AND post != '') AS pairs, countIf(pre = '' OR post = '') AS points,
  uniqExactIf(roi, roi != '') AS rois
  FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.synapseSummary */ SELECT count() AS neurons, countIf(id NOT IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2))) AS strangers
  FROM (
  SELECT id FROM (
  SELECT pre AS id FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND pre != '' GROUP BY id
  UNION ALL
  SELECT post AS id FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND post != '' GROUP BY id
  )
  GROUP BY id
  );

/* DataStore.dropTableVersion */ ALTER TABLE connections DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveFromRoiConnections */ INSERT INTO connections (dataset_id, version, pre, post, synapse_type, weight)
  SELECT '0190f3a4-5b6c-7d8e-9f00-112233445566', toUInt32(2), pre, post, CAST('chemical' AS Enum8('chemical' = 1, 'electrical' = 2)), sum(weight) FROM roi_connections
  WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND pre GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) AND post GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) GROUP BY pre, post SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.dropTableVersion */ ALTER TABLE neuron_rois DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveFromRoiConnections */ INSERT INTO neuron_rois (dataset_id, version, neuron_id, roi, pre, post, upstream, downstream)
  SELECT '0190f3a4-5b6c-7d8e-9f00-112233445566', toUInt32(2), neuron_id, roi, toUInt64(round(s_out)), toUInt64(round(s_in)), toUInt64(round(s_in)), toUInt64(round(s_out))
  FROM (
  SELECT neuron_id, roi, sum(w_out) AS s_out, sum(w_in) AS s_in
  FROM (
  SELECT pre AS neuron_id, roi, sum(weight) AS w_out, toFloat64(0) AS w_in FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND pre GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) GROUP BY neuron_id, roi
  UNION ALL
  SELECT post AS neuron_id, roi, toFloat64(0), sum(weight) FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND post GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) GROUP BY neuron_id, roi
  )
  GROUP BY neuron_id, roi
  ) SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.dropTableVersion */ ALTER TABLE roi_connections_by_roi DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveFromRoiConnections */ INSERT INTO roi_connections_by_roi (dataset_id, version, pre, post, roi, weight, transmitter) SELECT dataset_id, version, pre, post, roi, weight, transmitter FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.compactVersion */ OPTIMIZE TABLE synapses PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE synapses_by_post PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE roi_connections PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE roi_connections_by_roi PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE neuron_rois PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE connections PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.deriveFromRoiConnections */ SELECT 'synapses' AS t, count() AS n FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) UNION ALL SELECT 'roi_connections' AS t, count() AS n FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) UNION ALL SELECT 'connections' AS t, count() AS n FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) UNION ALL SELECT 'neuron_rois' AS t, count() AS n FROM neuron_rois WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

-- DataStore.deriveSynapseTables of a version with synapse pairs

/* DataStore.dropTableVersion */ ALTER TABLE synapses_by_post DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveSynapseTables */ INSERT INTO synapses_by_post (dataset_id, version, pre, post, synapse_id, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da) SELECT dataset_id, version, pre, post, synapse_id, x, y, z, roi, confidence, cleft_score, connection_score, size, transmitter, gaba, ach, glut, oct, ser, da FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.deriveSynapseTables */ SELECT toUInt8(1) AS x FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND pre != '' AND post != '' LIMIT 1;

/* DataStore.dropTableVersion */ ALTER TABLE roi_connections DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveSynapseTables */ INSERT INTO roi_connections (dataset_id, version, pre, post, roi, weight, transmitter)
  SELECT '0190f3a4-5b6c-7d8e-9f00-112233445566', toUInt32(2), pre, post, roi, toFloat64(sum(n)), argMinIf(transmitter, (-toInt64(n), transmitter), transmitter != '')
  FROM (
  SELECT pre, post, roi, transmitter, count() AS n FROM synapses
  WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND pre != '' AND post != '' AND pre GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) AND post GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2))
  GROUP BY pre, post, roi, transmitter
  )
  GROUP BY pre, post, roi SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.dropTableVersion */ ALTER TABLE neuron_rois DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveSynapseTables */ INSERT INTO neuron_rois (dataset_id, version, neuron_id, roi, pre, post, upstream, downstream)
  SELECT '0190f3a4-5b6c-7d8e-9f00-112233445566', toUInt32(2), neuron_id, tupleElement(r, 1), tupleElement(r, 2), tupleElement(r, 3), tupleElement(r, 3), if(lone > 0, NULL, tupleElement(r, 4))
  FROM (
  SELECT neuron_id, groupArray((roi, s_pre, s_post, s_down)) AS per_roi, sum(s_lone) AS lone
  FROM (
  SELECT neuron_id, roi, sum(n_pre) AS s_pre, sum(n_post) AS s_post, sum(n_down) AS s_down, sum(n_lone) AS s_lone
  FROM (
  SELECT pre AS neuron_id, roi, count() AS n_pre, toUInt64(0) AS n_post, countIf(post != '') AS n_down, countIf(post = '') AS n_lone
  FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND pre != '' AND pre GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) GROUP BY neuron_id, roi
  UNION ALL
  SELECT post AS neuron_id, roi, toUInt64(0), count(), toUInt64(0), toUInt64(0)
  FROM synapses_by_post WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND post != '' AND post GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) GROUP BY neuron_id, roi
  )
  GROUP BY neuron_id, roi
  )
  GROUP BY neuron_id
  )
  ARRAY JOIN per_roi AS r SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.deriveSynapseTables */ SELECT toUInt8(1) AS x FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) LIMIT 1;

/* DataStore.dropTableVersion */ ALTER TABLE connections DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveSynapseTables */ INSERT INTO connections (dataset_id, version, pre, post, synapse_type, weight)
  SELECT '0190f3a4-5b6c-7d8e-9f00-112233445566', toUInt32(2), pre, post, CAST('chemical' AS Enum8('chemical' = 1, 'electrical' = 2)), sum(weight) FROM roi_connections
  WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) AND pre GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) AND post GLOBAL IN (SELECT neuron_id FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)) GROUP BY pre, post SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.dropTableVersion */ ALTER TABLE roi_connections_by_roi DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2);

/* DataStore.deriveSynapseTables */ INSERT INTO roi_connections_by_roi (dataset_id, version, pre, post, roi, weight, transmitter) SELECT dataset_id, version, pre, post, roi, weight, transmitter FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) SETTINGS max_threads = 2, max_memory_usage = 6442450944, max_bytes_before_external_group_by = 2147483648, max_bytes_before_external_sort = 2147483648, distributed_aggregation_memory_efficient = 1, max_execution_time = 3600;

/* DataStore.compactVersion */ OPTIMIZE TABLE synapses PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE synapses_by_post PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE roi_connections PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE roi_connections_by_roi PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE neuron_rois PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.compactVersion */ OPTIMIZE TABLE connections PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 2) FINAL;

/* DataStore.deriveSynapseTables */ SELECT 'synapses' AS t, count() AS n FROM synapses WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) UNION ALL SELECT 'roi_connections' AS t, count() AS n FROM roi_connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) UNION ALL SELECT 'connections' AS t, count() AS n FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2) UNION ALL SELECT 'neuron_rois' AS t, count() AS n FROM neuron_rois WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

-- DataStore on a cluster: dropping a version

/* DataStore.dropTableVersion */ ALTER TABLE neurodata.connections_local ON CLUSTER neurodata DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

-- migrations, one server

CREATE TABLE IF NOT EXISTS neurodata.neurons (dataset_id String, version UInt32, neuron_id String, name String, cell_class String, cell_type String, neurotransmitter String, is_neuron UInt8, region_code String, x Nullable(Float64), y Nullable(Float64), z Nullable(Float64)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id);

CREATE TABLE IF NOT EXISTS neurodata.connections (dataset_id String, version UInt32, pre String, post String, synapse_type Enum8('chemical' = 1, 'electrical' = 2), weight Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post);

CREATE TABLE IF NOT EXISTS neurodata.morphologies (dataset_id String, version UInt32, neuron String, file String, object_key String, sha256 String, n_points UInt32, n_soma_points UInt32, n_stems UInt32, n_bifurcations UInt32, n_tips UInt32, total_length Float64, soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), min_x Float64, min_y Float64, min_z Float64, max_x Float64, max_y Float64, max_z Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron);

CREATE TABLE IF NOT EXISTS neurodata.synapses (dataset_id String, version UInt32, pre String, post String, synapse_id String, x Float64, y Float64, z Float64, roi String, confidence Nullable(Float32), cleft_score Nullable(Float32), connection_score Nullable(Float32), size Nullable(Float32), transmitter String, gaba Nullable(Float32), ach Nullable(Float32), glut Nullable(Float32), oct Nullable(Float32), ser Nullable(Float32), da Nullable(Float32)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post, synapse_id);

CREATE TABLE IF NOT EXISTS neurodata.synapses_by_post (dataset_id String, version UInt32, pre String, post String, synapse_id String, x Float64, y Float64, z Float64, roi String, confidence Nullable(Float32), cleft_score Nullable(Float32), connection_score Nullable(Float32), size Nullable(Float32), transmitter String, gaba Nullable(Float32), ach Nullable(Float32), glut Nullable(Float32), oct Nullable(Float32), ser Nullable(Float32), da Nullable(Float32)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, post, pre, synapse_id);

CREATE TABLE IF NOT EXISTS neurodata.roi_connections (dataset_id String, version UInt32, pre String, post String, roi String, weight Float64, transmitter String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post, roi);

CREATE TABLE IF NOT EXISTS neurodata.neuron_rois (dataset_id String, version UInt32, neuron_id String, roi String, pre UInt64, post UInt64, upstream UInt64, downstream Nullable(UInt64)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id, roi);

CREATE TABLE IF NOT EXISTS neurodata.neuron_annotations (dataset_id String, version UInt32, neuron_id String, instance String, type String, class String, super_class String, sub_class String, hemilineage String, side String, status String, transmitter String, transmitter_confidence Nullable(Float32), soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), extra String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id);

CREATE TABLE IF NOT EXISTS neurodata.rois (dataset_id String, version UInt32, roi String, parent String, is_primary UInt8, description String, term String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, roi);

CREATE TABLE IF NOT EXISTS neurodata.roi_connections_by_roi (dataset_id String, version UInt32, pre String, post String, roi String, weight Float64, transmitter String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, roi, pre, post);

INSERT INTO neurodata.roi_connections_by_roi (dataset_id, version, pre, post, roi, weight, transmitter) SELECT dataset_id, version, pre, post, roi, weight, transmitter FROM neurodata.roi_connections
    WHERE (dataset_id, version) GLOBAL NOT IN (SELECT dataset_id, version FROM neurodata.roi_connections_by_roi GROUP BY dataset_id, version);

-- migrations, cluster neurodata

CREATE TABLE IF NOT EXISTS neurodata.neurons_local ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, name String, cell_class String, cell_type String, neurotransmitter String, is_neuron UInt8, region_code String, x Nullable(Float64), y Nullable(Float64), z Nullable(Float64)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id);

CREATE TABLE IF NOT EXISTS neurodata.neurons ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, name String, cell_class String, cell_type String, neurotransmitter String, is_neuron UInt8, region_code String, x Nullable(Float64), y Nullable(Float64), z Nullable(Float64)) ENGINE = Distributed(neurodata, neurodata, neurons_local, cityHash64(dataset_id));

CREATE TABLE IF NOT EXISTS neurodata.connections_local ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_type Enum8('chemical' = 1, 'electrical' = 2), weight Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post);

CREATE TABLE IF NOT EXISTS neurodata.connections ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_type Enum8('chemical' = 1, 'electrical' = 2), weight Float64) ENGINE = Distributed(neurodata, neurodata, connections_local, cityHash64(dataset_id));

CREATE TABLE IF NOT EXISTS neurodata.morphologies_local ON CLUSTER neurodata (dataset_id String, version UInt32, neuron String, file String, object_key String, sha256 String, n_points UInt32, n_soma_points UInt32, n_stems UInt32, n_bifurcations UInt32, n_tips UInt32, total_length Float64, soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), min_x Float64, min_y Float64, min_z Float64, max_x Float64, max_y Float64, max_z Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron);

CREATE TABLE IF NOT EXISTS neurodata.morphologies ON CLUSTER neurodata (dataset_id String, version UInt32, neuron String, file String, object_key String, sha256 String, n_points UInt32, n_soma_points UInt32, n_stems UInt32, n_bifurcations UInt32, n_tips UInt32, total_length Float64, soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), min_x Float64, min_y Float64, min_z Float64, max_x Float64, max_y Float64, max_z Float64) ENGINE = Distributed(neurodata, neurodata, morphologies_local, cityHash64(dataset_id));

CREATE TABLE IF NOT EXISTS neurodata.synapses_local ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_id String, x Float64, y Float64, z Float64, roi String, confidence Nullable(Float32), cleft_score Nullable(Float32), connection_score Nullable(Float32), size Nullable(Float32), transmitter String, gaba Nullable(Float32), ach Nullable(Float32), glut Nullable(Float32), oct Nullable(Float32), ser Nullable(Float32), da Nullable(Float32)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post, synapse_id);

CREATE TABLE IF NOT EXISTS neurodata.synapses ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_id String, x Float64, y Float64, z Float64, roi String, confidence Nullable(Float32), cleft_score Nullable(Float32), connection_score Nullable(Float32), size Nullable(Float32), transmitter String, gaba Nullable(Float32), ach Nullable(Float32), glut Nullable(Float32), oct Nullable(Float32), ser Nullable(Float32), da Nullable(Float32)) ENGINE = Distributed(neurodata, neurodata, synapses_local, cityHash64(dataset_id, if(pre = '', post, pre)));

CREATE TABLE IF NOT EXISTS neurodata.synapses_by_post_local ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_id String, x Float64, y Float64, z Float64, roi String, confidence Nullable(Float32), cleft_score Nullable(Float32), connection_score Nullable(Float32), size Nullable(Float32), transmitter String, gaba Nullable(Float32), ach Nullable(Float32), glut Nullable(Float32), oct Nullable(Float32), ser Nullable(Float32), da Nullable(Float32)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, post, pre, synapse_id);

CREATE TABLE IF NOT EXISTS neurodata.synapses_by_post ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_id String, x Float64, y Float64, z Float64, roi String, confidence Nullable(Float32), cleft_score Nullable(Float32), connection_score Nullable(Float32), size Nullable(Float32), transmitter String, gaba Nullable(Float32), ach Nullable(Float32), glut Nullable(Float32), oct Nullable(Float32), ser Nullable(Float32), da Nullable(Float32)) ENGINE = Distributed(neurodata, neurodata, synapses_by_post_local, cityHash64(dataset_id, if(post = '', pre, post)));

CREATE TABLE IF NOT EXISTS neurodata.roi_connections_local ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, roi String, weight Float64, transmitter String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post, roi);

CREATE TABLE IF NOT EXISTS neurodata.roi_connections ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, roi String, weight Float64, transmitter String) ENGINE = Distributed(neurodata, neurodata, roi_connections_local, cityHash64(dataset_id, pre));

CREATE TABLE IF NOT EXISTS neurodata.neuron_rois_local ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, roi String, pre UInt64, post UInt64, upstream UInt64, downstream Nullable(UInt64)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id, roi);

CREATE TABLE IF NOT EXISTS neurodata.neuron_rois ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, roi String, pre UInt64, post UInt64, upstream UInt64, downstream Nullable(UInt64)) ENGINE = Distributed(neurodata, neurodata, neuron_rois_local, cityHash64(dataset_id, neuron_id));

CREATE TABLE IF NOT EXISTS neurodata.neuron_annotations_local ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, instance String, type String, class String, super_class String, sub_class String, hemilineage String, side String, status String, transmitter String, transmitter_confidence Nullable(Float32), soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), extra String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id);

CREATE TABLE IF NOT EXISTS neurodata.neuron_annotations ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, instance String, type String, class String, super_class String, sub_class String, hemilineage String, side String, status String, transmitter String, transmitter_confidence Nullable(Float32), soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), extra String) ENGINE = Distributed(neurodata, neurodata, neuron_annotations_local, cityHash64(dataset_id));

CREATE TABLE IF NOT EXISTS neurodata.rois_local ON CLUSTER neurodata (dataset_id String, version UInt32, roi String, parent String, is_primary UInt8, description String, term String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, roi);

CREATE TABLE IF NOT EXISTS neurodata.rois ON CLUSTER neurodata (dataset_id String, version UInt32, roi String, parent String, is_primary UInt8, description String, term String) ENGINE = Distributed(neurodata, neurodata, rois_local, cityHash64(dataset_id));

CREATE TABLE IF NOT EXISTS neurodata.roi_connections_by_roi_local ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, roi String, weight Float64, transmitter String) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, roi, pre, post);

CREATE TABLE IF NOT EXISTS neurodata.roi_connections_by_roi ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, roi String, weight Float64, transmitter String) ENGINE = Distributed(neurodata, neurodata, roi_connections_by_roi_local, cityHash64(dataset_id, pre));

INSERT INTO neurodata.roi_connections_by_roi (dataset_id, version, pre, post, roi, weight, transmitter) SELECT dataset_id, version, pre, post, roi, weight, transmitter FROM neurodata.roi_connections
    WHERE (dataset_id, version) GLOBAL NOT IN (SELECT dataset_id, version FROM neurodata.roi_connections_by_roi GROUP BY dataset_id, version);
