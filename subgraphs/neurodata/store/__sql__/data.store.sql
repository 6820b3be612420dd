-- DataStore on one server (values as sent to ClickHouse 18.16, which has no query parameters)

/* DataStore.insertTsv */ INSERT INTO connections (dataset_id, version, pre, post, synapse_type, weight) FORMAT TabSeparated;

/* DataStore.rowCounts */ SELECT 'neurons' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'connections' AS t, count() AS n, countIf(synapse_type = 'chemical') AS chemical, countIf(synapse_type = 'electrical') AS electrical FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2)
  UNION ALL SELECT 'morphologies' AS t, count() AS n, toUInt64(0) AS chemical, toUInt64(0) AS electrical FROM morphologies WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

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

/* DataStore.copyVersion */ INSERT INTO neurons (dataset_id, version, neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z) SELECT dataset_id, toUInt32(3), neuron_id, name, cell_class, cell_type, neurotransmitter, is_neuron, region_code, x, y, z FROM neurons WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO connections (dataset_id, version, pre, post, synapse_type, weight) SELECT dataset_id, toUInt32(3), pre, post, synapse_type, weight FROM connections WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

/* DataStore.copyVersion */ INSERT INTO morphologies (dataset_id, version, neuron, file, object_key, sha256, n_points, n_soma_points, n_stems, n_bifurcations, n_tips, total_length, soma_x, soma_y, soma_z, min_x, min_y, min_z, max_x, max_y, max_z) SELECT dataset_id, toUInt32(3), neuron, file, object_key, sha256, n_points, n_soma_points, n_stems, n_bifurcations, n_tips, total_length, soma_x, soma_y, soma_z, min_x, min_y, min_z, max_x, max_y, max_z FROM morphologies WHERE dataset_id = '0190f3a4-5b6c-7d8e-9f00-112233445566' AND version = toUInt32(2);

-- DataStore on a cluster: dropping a version

/* DataStore.dropTableVersion */ ALTER TABLE neurodata.connections_local ON CLUSTER neurodata DROP PARTITION ('0190f3a4-5b6c-7d8e-9f00-112233445566', 3);

-- migrations, one server

CREATE TABLE IF NOT EXISTS neurodata.neurons (dataset_id String, version UInt32, neuron_id String, name String, cell_class String, cell_type String, neurotransmitter String, is_neuron UInt8, region_code String, x Nullable(Float64), y Nullable(Float64), z Nullable(Float64)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id);

CREATE TABLE IF NOT EXISTS neurodata.connections (dataset_id String, version UInt32, pre String, post String, synapse_type Enum8('chemical' = 1, 'electrical' = 2), weight Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post);

CREATE TABLE IF NOT EXISTS neurodata.morphologies (dataset_id String, version UInt32, neuron String, file String, object_key String, sha256 String, n_points UInt32, n_soma_points UInt32, n_stems UInt32, n_bifurcations UInt32, n_tips UInt32, total_length Float64, soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), min_x Float64, min_y Float64, min_z Float64, max_x Float64, max_y Float64, max_z Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron);

-- migrations, cluster neurodata

CREATE TABLE IF NOT EXISTS neurodata.neurons_local ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, name String, cell_class String, cell_type String, neurotransmitter String, is_neuron UInt8, region_code String, x Nullable(Float64), y Nullable(Float64), z Nullable(Float64)) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron_id);

CREATE TABLE IF NOT EXISTS neurodata.neurons ON CLUSTER neurodata (dataset_id String, version UInt32, neuron_id String, name String, cell_class String, cell_type String, neurotransmitter String, is_neuron UInt8, region_code String, x Nullable(Float64), y Nullable(Float64), z Nullable(Float64)) ENGINE = Distributed(neurodata, neurodata, neurons_local, cityHash64(dataset_id));

CREATE TABLE IF NOT EXISTS neurodata.connections_local ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_type Enum8('chemical' = 1, 'electrical' = 2), weight Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post);

CREATE TABLE IF NOT EXISTS neurodata.connections ON CLUSTER neurodata (dataset_id String, version UInt32, pre String, post String, synapse_type Enum8('chemical' = 1, 'electrical' = 2), weight Float64) ENGINE = Distributed(neurodata, neurodata, connections_local, cityHash64(dataset_id));

CREATE TABLE IF NOT EXISTS neurodata.morphologies_local ON CLUSTER neurodata (dataset_id String, version UInt32, neuron String, file String, object_key String, sha256 String, n_points UInt32, n_soma_points UInt32, n_stems UInt32, n_bifurcations UInt32, n_tips UInt32, total_length Float64, soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), min_x Float64, min_y Float64, min_z Float64, max_x Float64, max_y Float64, max_z Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, neuron);

CREATE TABLE IF NOT EXISTS neurodata.morphologies ON CLUSTER neurodata (dataset_id String, version UInt32, neuron String, file String, object_key String, sha256 String, n_points UInt32, n_soma_points UInt32, n_stems UInt32, n_bifurcations UInt32, n_tips UInt32, total_length Float64, soma_x Nullable(Float64), soma_y Nullable(Float64), soma_z Nullable(Float64), min_x Float64, min_y Float64, min_z Float64, max_x Float64, max_y Float64, max_z Float64) ENGINE = Distributed(neurodata, neurodata, morphologies_local, cityHash64(dataset_id));
