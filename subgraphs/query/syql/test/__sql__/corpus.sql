-- every neuron
-- MATCH (a:Neuron) IN "male"@v1 RETURN a.id, a.name
SELECT neuron_id AS c0, name AS c1 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32};
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1

-- property map and comparisons
-- MATCH (a {class: 'AVA'}) IN "male"@v1 WHERE a.x > 10 AND a.name STARTS WITH 'AV' AND a.type <> 'motor' RETURN a
SELECT neuron_id AS c0, name AS c1, cell_class AS c2, cell_type AS c3, neurotransmitter AS c4, region_code AS c5, is_neuron AS c6, x AS c7, y AS c8, z AS c9 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND (cell_class = {p2:String}) AND ifNull((x > {p3:Int64}), 0) AND startsWith(name, {p4:String}) AND (cell_type != {p5:String});
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "AVA"
--   p3 Int64 = 10
--   p4 String = "AV"
--   p5 String = "motor"

-- null tests and a condition as a column
-- MATCH (a) IN "tiny"@v1 WHERE a.x IS NOT NULL OR a.y IS NULL RETURN a.id, a.x > 10 AS far
SELECT neuron_id AS c0, if(ifNull((x > {p0:Int64}), 0), 1, if(ifNull(x <= {p1:Int64}, 0), 0, NULL)) AS c1 FROM neurons WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND ((NOT isNull(x)) OR isNull(y));
--   p0 Int64 = 10
--   p1 Int64 = 10
--   p2 String = "00000000-0000-4000-8000-000000000003"
--   p3 UInt32 = 1

-- NOT, CONTAINS, ENDS WITH
-- MATCH (a) IN "male"@v1 WHERE NOT (a.name CONTAINS 'L' OR a.name ENDS WITH 'R') RETURN a.id
SELECT neuron_id AS c0 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND (NOT ((position(name, {p2:String}) > 0) OR endsWith(name, {p3:String})));
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "L"
--   p3 String = "R"

-- a region and the regions below it
-- MATCH (a) IN "male"@v1 WHERE a.region WITHIN 'R:S' RETURN a.id
SELECT neuron_id AS c0 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND (region_code IN ({p2:String}, {p3:String}, {p4:String}));
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "R:S"
--   p3 String = "R:S1"
--   p4 String = "R:S2"

-- parameters: a list, numbers, a boolean, SKIP and LIMIT
-- MATCH (a)-[c:Chemical]->(b) IN "male"@v1 WHERE a.name IN $names AND c.weight >= $w AND b.is_neuron = $neuron RETURN a.name, b.name, c.weight ORDER BY c.weight DESC, b.name SKIP $s LIMIT $n
-- with {"names":["AVAL","AVAR"],"w":2,"neuron":true,"s":1,"n":10}
SELECT v0_name AS c0, v1_name AS c1, e0_weight AS c2 FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND (is_neuron = {p2:UInt8})) AS t2 ALL INNER JOIN (SELECT v1_id, e0_weight, v0_name FROM (SELECT neuron_id AS v0_id, name AS v0_name FROM neurons WHERE dataset_id = {p3:String} AND version = {p4:UInt32} AND (name IN ({p5:String}, {p6:String}))) AS t0 ALL INNER JOIN (SELECT pre AS v0_id, post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p7:String} AND version = {p8:UInt32} AND synapse_type = 'chemical' AND (weight >= {p9:Int64}) AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p10:String} AND version = {p11:UInt32} AND (name IN ({p12:String}, {p13:String}))) AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p14:String} AND version = {p15:UInt32} AND (is_neuron = {p16:UInt8}))) AS t1 USING (v0_id)) AS t3 USING (v1_id) ORDER BY c2 DESC, c1 ASC LIMIT 1, 10;
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 UInt8 = 1
--   p3 String = "00000000-0000-4000-8000-000000000001"
--   p4 UInt32 = 1
--   p5 String = "AVAL"
--   p6 String = "AVAR"
--   p7 String = "00000000-0000-4000-8000-000000000001"
--   p8 UInt32 = 1
--   p9 Int64 = 2
--   p10 String = "00000000-0000-4000-8000-000000000001"
--   p11 UInt32 = 1
--   p12 String = "AVAL"
--   p13 String = "AVAR"
--   p14 String = "00000000-0000-4000-8000-000000000001"
--   p15 UInt32 = 1
--   p16 UInt8 = 1
-- its count:
SELECT least(toInt64(10), greatest(toInt64(0), toInt64(count()) - toInt64(1))) AS count FROM (SELECT v0_name AS c0, v1_name AS c1, e0_weight AS c2 FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND (is_neuron = {p2:UInt8})) AS t2 ALL INNER JOIN (SELECT v1_id, e0_weight, v0_name FROM (SELECT neuron_id AS v0_id, name AS v0_name FROM neurons WHERE dataset_id = {p3:String} AND version = {p4:UInt32} AND (name IN ({p5:String}, {p6:String}))) AS t0 ALL INNER JOIN (SELECT pre AS v0_id, post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p7:String} AND version = {p8:UInt32} AND synapse_type = 'chemical' AND (weight >= {p9:Int64}) AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p10:String} AND version = {p11:UInt32} AND (name IN ({p12:String}, {p13:String}))) AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p14:String} AND version = {p15:UInt32} AND (is_neuron = {p16:UInt8}))) AS t1 USING (v0_id)) AS t3 USING (v1_id));
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 UInt8 = 1
--   p3 String = "00000000-0000-4000-8000-000000000001"
--   p4 UInt32 = 1
--   p5 String = "AVAL"
--   p6 String = "AVAR"
--   p7 String = "00000000-0000-4000-8000-000000000001"
--   p8 UInt32 = 1
--   p9 Int64 = 2
--   p10 String = "00000000-0000-4000-8000-000000000001"
--   p11 UInt32 = 1
--   p12 String = "AVAL"
--   p13 String = "AVAR"
--   p14 String = "00000000-0000-4000-8000-000000000001"
--   p15 UInt32 = 1
--   p16 UInt8 = 1

-- NOT IN a list
-- MATCH (a) IN "tiny"@v1 WHERE a.name NOT IN $names RETURN a.id
-- with {"names":["alpha","beta"]}
SELECT neuron_id AS c0 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND (name NOT IN ({p2:String}, {p3:String}));
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1
--   p2 String = "alpha"
--   p3 String = "beta"

-- chemical, outgoing
-- MATCH (a)-[c:Chemical]->(b) IN "male"@v1 WHERE c.weight > 3 RETURN a.id, b.id, c.weight
SELECT pre AS c0, post AS c1, weight AS c2 FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical' AND (weight > {p2:Int64});
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 Int64 = 3

-- chemical, incoming
-- MATCH (a)<-[c:Chemical]-(b) IN "male"@v1 RETURN a.id, b.id, c.weight
SELECT post AS c0, pre AS c1, weight AS c2 FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical';
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1

-- electrical, either way
-- MATCH (a)-[e:Electrical]-(b) IN "tiny"@v1 RETURN a.id, b.id, e.weight
SELECT v0_id AS c0, v1_id AS c1, e0_weight AS c2 FROM (SELECT pre AS v0_id, post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'electrical' UNION ALL SELECT post AS v0_id, pre AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND synapse_type = 'electrical' AND pre != post);
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000003"
--   p3 UInt32 = 1

-- any kind, a self-pair
-- MATCH (a)-[e]-(a) IN "tiny"@v1 RETURN a.id, e.type
SELECT post AS c0, toString(synapse_type) AS c1 FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND pre = post;
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1

-- filtered ends not returned (semijoins)
-- MATCH (a {type: 'sensory'})-[c:Chemical]->(b) IN "male"@v1 WHERE b.class STARTS WITH 'AV' RETURN c.weight
SELECT weight AS c0 FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND (cell_type = {p4:String})) AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p5:String} AND version = {p6:UInt32} AND startsWith(cell_class, {p7:String}));
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000001"
--   p3 UInt32 = 1
--   p4 String = "sensory"
--   p5 String = "00000000-0000-4000-8000-000000000001"
--   p6 UInt32 = 1
--   p7 String = "AV"

-- two relationships
-- MATCH (a {name: 'AVAL'})-[:Chemical]->(b)-[c2:Chemical]->(c) IN "male"@v1 RETURN b.name, c.id, c2.weight
SELECT v1_name AS c0, v2_id AS c1, e1_weight AS c2 FROM (SELECT pre AS v1_id, post AS v2_id, weight AS e1_weight FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical') AS t2 ALL INNER JOIN (SELECT v1_id, v1_name FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p2:String} AND version = {p3:UInt32}) AS t0 ALL INNER JOIN (SELECT post AS v1_id FROM connections WHERE dataset_id = {p4:String} AND version = {p5:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p6:String} AND version = {p7:UInt32} AND (name = {p8:String}))) AS t1 USING (v1_id)) AS t3 USING (v1_id);
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000001"
--   p3 UInt32 = 1
--   p4 String = "00000000-0000-4000-8000-000000000001"
--   p5 UInt32 = 1
--   p6 String = "00000000-0000-4000-8000-000000000001"
--   p7 UInt32 = 1
--   p8 String = "AVAL"

-- a cycle of three
-- MATCH (a)-->(b)-->(c)-->(a) IN "tiny"@v1 RETURN a.id, b.id, c.id
SELECT v0_id AS c0, v1_id AS c1, v2_id AS c2 FROM (SELECT v0_id, v1_id, v2_id FROM (SELECT pre AS v0_id, post AS v1_id FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} UNION ALL SELECT post AS v0_id, pre AS v1_id FROM connections WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND synapse_type = 'electrical' AND pre != post) AS t0 ALL INNER JOIN (SELECT pre AS v1_id, post AS v2_id FROM connections WHERE dataset_id = {p4:String} AND version = {p5:UInt32} UNION ALL SELECT post AS v1_id, pre AS v2_id FROM connections WHERE dataset_id = {p6:String} AND version = {p7:UInt32} AND synapse_type = 'electrical' AND pre != post) AS t1 USING (v1_id)) AS t2 ALL INNER JOIN (SELECT pre AS v2_id, post AS v0_id FROM connections WHERE dataset_id = {p8:String} AND version = {p9:UInt32} UNION ALL SELECT post AS v2_id, pre AS v0_id FROM connections WHERE dataset_id = {p10:String} AND version = {p11:UInt32} AND synapse_type = 'electrical' AND pre != post) AS t3 USING (v2_id, v0_id);
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000003"
--   p3 UInt32 = 1
--   p4 String = "00000000-0000-4000-8000-000000000003"
--   p5 UInt32 = 1
--   p6 String = "00000000-0000-4000-8000-000000000003"
--   p7 UInt32 = 1
--   p8 String = "00000000-0000-4000-8000-000000000003"
--   p9 UInt32 = 1
--   p10 String = "00000000-0000-4000-8000-000000000003"
--   p11 UInt32 = 1

-- morphologies
-- MATCH (n:Neuron)-[:HAS_MORPHOLOGY]->(m:Morphology) IN "tiny"@v1 WHERE m.n_points > 10 RETURN n.name, m.file, m.soma_x
SELECT v0_name AS c0, v1_file AS c1, v1_soma_x AS c2 FROM (SELECT neuron_id AS v0_id, name AS v0_name FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32}) AS t0 ALL INNER JOIN (SELECT neuron AS v0_id, file AS v1_file, soma_x AS v1_soma_x FROM morphologies WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND (n_points > {p4:Int64})) AS t1 USING (v0_id);
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000003"
--   p3 UInt32 = 1
--   p4 Int64 = 10

-- a variable-length path
-- MATCH (a {name: 'AVAL'})-[p:Chemical*1..3]->(b) IN "male"@v1 WHERE p.hops >= 2 RETURN a.id, b.id, p
SELECT v0_id AS c0, v1_id AS c1, CAST(e0_hops AS Int64) AS c2 FROM (SELECT k_s AS v0_id, k_e AS v1_id, min(h) AS e0_hops FROM (SELECT k_s, k_e, toUInt8(1) AS h FROM (SELECT pre AS k_s, post AS k_e FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND (name = {p4:String}))) UNION ALL SELECT k_s, k_e, toUInt8(2) AS h FROM (SELECT pre AS k_x1, post AS k_e FROM connections WHERE dataset_id = {p5:String} AND version = {p6:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT k_x1 FROM (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p7:String} AND version = {p8:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p9:String} AND version = {p10:UInt32} AND (name = {p11:String})))))) AS t0 ALL INNER JOIN (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p12:String} AND version = {p13:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p14:String} AND version = {p15:UInt32} AND (name = {p16:String})))) AS t1 USING (k_x1) UNION ALL SELECT k_s, k_e, toUInt8(3) AS h FROM (SELECT pre AS k_x2, post AS k_e FROM connections WHERE dataset_id = {p17:String} AND version = {p18:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT k_x2 FROM (SELECT DISTINCT k_s, k_x2 FROM (SELECT pre AS k_x1, post AS k_x2 FROM connections WHERE dataset_id = {p19:String} AND version = {p20:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT k_x1 FROM (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p21:String} AND version = {p22:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p23:String} AND version = {p24:UInt32} AND (name = {p25:String})))))) AS t2 ALL INNER JOIN (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p26:String} AND version = {p27:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p28:String} AND version = {p29:UInt32} AND (name = {p30:String})))) AS t3 USING (k_x1)))) AS t4 ALL INNER JOIN (SELECT DISTINCT k_s, k_x2 FROM (SELECT pre AS k_x1, post AS k_x2 FROM connections WHERE dataset_id = {p31:String} AND version = {p32:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT k_x1 FROM (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p33:String} AND version = {p34:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p35:String} AND version = {p36:UInt32} AND (name = {p37:String})))))) AS t2 ALL INNER JOIN (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p38:String} AND version = {p39:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p40:String} AND version = {p41:UInt32} AND (name = {p42:String})))) AS t3 USING (k_x1)) AS t5 USING (k_x2)) GROUP BY k_s, k_e HAVING (min(h) >= {p43:Int64}));
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000001"
--   p3 UInt32 = 1
--   p4 String = "AVAL"
--   p5 String = "00000000-0000-4000-8000-000000000001"
--   p6 UInt32 = 1
--   p7 String = "00000000-0000-4000-8000-000000000001"
--   p8 UInt32 = 1
--   p9 String = "00000000-0000-4000-8000-000000000001"
--   p10 UInt32 = 1
--   p11 String = "AVAL"
--   p12 String = "00000000-0000-4000-8000-000000000001"
--   p13 UInt32 = 1
--   p14 String = "00000000-0000-4000-8000-000000000001"
--   p15 UInt32 = 1
--   p16 String = "AVAL"
--   p17 String = "00000000-0000-4000-8000-000000000001"
--   p18 UInt32 = 1
--   p19 String = "00000000-0000-4000-8000-000000000001"
--   p20 UInt32 = 1
--   p21 String = "00000000-0000-4000-8000-000000000001"
--   p22 UInt32 = 1
--   p23 String = "00000000-0000-4000-8000-000000000001"
--   p24 UInt32 = 1
--   p25 String = "AVAL"
--   p26 String = "00000000-0000-4000-8000-000000000001"
--   p27 UInt32 = 1
--   p28 String = "00000000-0000-4000-8000-000000000001"
--   p29 UInt32 = 1
--   p30 String = "AVAL"
--   p31 String = "00000000-0000-4000-8000-000000000001"
--   p32 UInt32 = 1
--   p33 String = "00000000-0000-4000-8000-000000000001"
--   p34 UInt32 = 1
--   p35 String = "00000000-0000-4000-8000-000000000001"
--   p36 UInt32 = 1
--   p37 String = "AVAL"
--   p38 String = "00000000-0000-4000-8000-000000000001"
--   p39 UInt32 = 1
--   p40 String = "00000000-0000-4000-8000-000000000001"
--   p41 UInt32 = 1
--   p42 String = "AVAL"
--   p43 Int64 = 2

-- a path closing a cycle
-- MATCH (a)-[p:Chemical*1..3]->(a) IN "tiny"@v1 RETURN a.id, p.hops
SELECT v0_id AS c0, CAST(e0_hops AS Int64) AS c1 FROM (SELECT k_s AS v0_id, min(h) AS e0_hops FROM (SELECT k_s, k_e, toUInt8(1) AS h FROM (SELECT pre AS k_s, post AS k_e FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical') UNION ALL SELECT k_s, k_e, toUInt8(2) AS h FROM (SELECT pre AS k_x1, post AS k_e FROM connections WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND synapse_type = 'chemical') AS t0 ALL INNER JOIN (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p4:String} AND version = {p5:UInt32} AND synapse_type = 'chemical')) AS t1 USING (k_x1) UNION ALL SELECT k_s, k_e, toUInt8(3) AS h FROM (SELECT pre AS k_x2, post AS k_e FROM connections WHERE dataset_id = {p6:String} AND version = {p7:UInt32} AND synapse_type = 'chemical') AS t4 ALL INNER JOIN (SELECT DISTINCT k_s, k_x2 FROM (SELECT pre AS k_x1, post AS k_x2 FROM connections WHERE dataset_id = {p8:String} AND version = {p9:UInt32} AND synapse_type = 'chemical') AS t2 ALL INNER JOIN (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p10:String} AND version = {p11:UInt32} AND synapse_type = 'chemical')) AS t3 USING (k_x1)) AS t5 USING (k_x2)) WHERE k_s = k_e GROUP BY k_s, k_e);
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000003"
--   p3 UInt32 = 1
--   p4 String = "00000000-0000-4000-8000-000000000003"
--   p5 UInt32 = 1
--   p6 String = "00000000-0000-4000-8000-000000000003"
--   p7 UInt32 = 1
--   p8 String = "00000000-0000-4000-8000-000000000003"
--   p9 UInt32 = 1
--   p10 String = "00000000-0000-4000-8000-000000000003"
--   p11 UInt32 = 1

-- aggregates with grouping keys
-- MATCH (a)-[c:Chemical]->(b) IN "male"@v1 WHERE b.class = 'AVA' RETURN a, count(*) AS n, sum(c.weight) AS w, avg(DISTINCT c.weight), min(b.name)
SELECT v0_id AS c0, any(v0_name) AS c1, any(v0_class) AS c2, any(v0_type) AS c3, any(v0_neurotransmitter) AS c4, any(v0_region) AS c5, any(v0_is_neuron) AS c6, any(v0_x) AS c7, any(v0_y) AS c8, any(v0_z) AS c9, toInt64(count()) AS c10, sum(e0_weight) AS c11, CAST(arrayReduce('avg', groupUniqArray(e0_weight)) AS Float64) AS c12, min(v1_name) AS c13 FROM (SELECT neuron_id AS v0_id, name AS v0_name, cell_class AS v0_class, cell_type AS v0_type, neurotransmitter AS v0_neurotransmitter, region_code AS v0_region, is_neuron AS v0_is_neuron, x AS v0_x, y AS v0_y, z AS v0_z FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32}) AS t2 ALL INNER JOIN (SELECT v1_name, v0_id, e0_weight FROM (SELECT pre AS v0_id, post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND synapse_type = 'chemical' AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p4:String} AND version = {p5:UInt32} AND (cell_class = {p6:String}))) AS t0 ALL INNER JOIN (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p7:String} AND version = {p8:UInt32} AND (cell_class = {p9:String})) AS t1 USING (v1_id)) AS t3 USING (v0_id) GROUP BY c0;
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000001"
--   p3 UInt32 = 1
--   p4 String = "00000000-0000-4000-8000-000000000001"
--   p5 UInt32 = 1
--   p6 String = "AVA"
--   p7 String = "00000000-0000-4000-8000-000000000001"
--   p8 UInt32 = 1
--   p9 String = "AVA"

-- aggregates without grouping keys
-- MATCH (m:Morphology) IN "tiny"@v1 RETURN count(*), sum(m.n_points), min(m.soma_x)
SELECT toInt64(count()) AS c0, CAST(sum(n_points) AS Int64) AS c1, min(soma_x) AS c2 FROM morphologies WHERE dataset_id = {p0:String} AND version = {p1:UInt32};
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1

-- count DISTINCT of a node
-- MATCH (a {class: 'AVA'})-[:Chemical*1..2]->(b) IN "male"@v1 RETURN count(*) AS pairs, count(DISTINCT b) AS targets
SELECT toInt64(count()) AS c0, toInt64(uniqExact(v1_id)) AS c1 FROM (SELECT k_e AS v1_id FROM (SELECT pre AS k_s, post AS k_e FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND (cell_class = {p4:String})) UNION ALL SELECT k_s, k_e FROM (SELECT pre AS k_x1, post AS k_e FROM connections WHERE dataset_id = {p5:String} AND version = {p6:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT k_x1 FROM (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p7:String} AND version = {p8:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p9:String} AND version = {p10:UInt32} AND (cell_class = {p11:String})))))) AS t0 ALL INNER JOIN (SELECT DISTINCT k_s, k_x1 FROM (SELECT pre AS k_s, post AS k_x1 FROM connections WHERE dataset_id = {p12:String} AND version = {p13:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p14:String} AND version = {p15:UInt32} AND (cell_class = {p16:String})))) AS t1 USING (k_x1)) GROUP BY k_s, k_e);
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000001"
--   p3 UInt32 = 1
--   p4 String = "AVA"
--   p5 String = "00000000-0000-4000-8000-000000000001"
--   p6 UInt32 = 1
--   p7 String = "00000000-0000-4000-8000-000000000001"
--   p8 UInt32 = 1
--   p9 String = "00000000-0000-4000-8000-000000000001"
--   p10 UInt32 = 1
--   p11 String = "AVA"
--   p12 String = "00000000-0000-4000-8000-000000000001"
--   p13 UInt32 = 1
--   p14 String = "00000000-0000-4000-8000-000000000001"
--   p15 UInt32 = 1
--   p16 String = "AVA"

-- DISTINCT
-- MATCH (a)-[:Chemical]->(b {type: 'motor'}) IN "male"@v1 RETURN DISTINCT a.class, b.type
SELECT DISTINCT v0_class AS c0, v1_type AS c1 FROM (SELECT neuron_id AS v0_id, cell_class AS v0_class FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32}) AS t2 ALL INNER JOIN (SELECT v1_type, v0_id FROM (SELECT pre AS v0_id, post AS v1_id FROM connections WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND synapse_type = 'chemical' AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p4:String} AND version = {p5:UInt32} AND (cell_type = {p6:String}))) AS t0 ALL INNER JOIN (SELECT neuron_id AS v1_id, cell_type AS v1_type FROM neurons WHERE dataset_id = {p7:String} AND version = {p8:UInt32} AND (cell_type = {p9:String})) AS t1 USING (v1_id)) AS t3 USING (v0_id);
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000001"
--   p3 UInt32 = 1
--   p4 String = "00000000-0000-4000-8000-000000000001"
--   p5 UInt32 = 1
--   p6 String = "motor"
--   p7 String = "00000000-0000-4000-8000-000000000001"
--   p8 UInt32 = 1
--   p9 String = "motor"

-- ORDER BY with the unfiltered lookups after it
-- MATCH (a)-[:Chemical]->(b) IN "male"@v1 RETURN a.id, count(*) AS n ORDER BY n DESC, a.id LIMIT 5
SELECT pre AS c0, toInt64(count()) AS c1 FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical' GROUP BY c0 ORDER BY c1 DESC, c0 ASC LIMIT 5;
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
-- its count:
SELECT least(toInt64(5), toInt64(count())) AS count FROM (SELECT pre AS c0, toInt64(count()) AS c1 FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical' GROUP BY c0);
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1

-- ORDER BY nulls last, SKIP
-- MATCH (a) IN "tiny"@v1 RETURN a.id, a.x ORDER BY a.x DESC, a.id SKIP 2
SELECT neuron_id AS c0, x AS c1 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} ORDER BY c1 DESC NULLS FIRST, c0 ASC LIMIT 2, 1000000000000000;
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1
-- its count:
SELECT greatest(toInt64(0), toInt64(count()) - toInt64(2)) AS count FROM (SELECT neuron_id AS c0, x AS c1 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32});
--   p0 String = "00000000-0000-4000-8000-000000000003"
--   p1 UInt32 = 1

-- several datasets
-- MATCH (a {name: 'AVAL'})-[c:Chemical]->(b) IN "male"@v1, "varshney"@v2 RETURN b.name, c.weight ORDER BY c.weight DESC
SELECT c0, c1, c2 FROM (SELECT {p0:String} AS c0, v1_name AS c1, e0_weight AS c2 FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p1:String} AND version = {p2:UInt32}) AS t0 ALL INNER JOIN (SELECT post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p3:String} AND version = {p4:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p5:String} AND version = {p6:UInt32} AND (name = {p7:String}))) AS t1 USING (v1_id) UNION ALL SELECT {p8:String} AS c0, v1_name AS c1, e0_weight AS c2 FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p9:String} AND version = {p10:UInt32}) AS t2 ALL INNER JOIN (SELECT post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p11:String} AND version = {p12:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p13:String} AND version = {p14:UInt32} AND (name = {p15:String}))) AS t3 USING (v1_id)) ORDER BY c2 DESC;
--   p0 String = "male@v1"
--   p1 String = "00000000-0000-4000-8000-000000000001"
--   p2 UInt32 = 1
--   p3 String = "00000000-0000-4000-8000-000000000001"
--   p4 UInt32 = 1
--   p5 String = "00000000-0000-4000-8000-000000000001"
--   p6 UInt32 = 1
--   p7 String = "AVAL"
--   p8 String = "varshney@v2"
--   p9 String = "00000000-0000-4000-8000-000000000002"
--   p10 UInt32 = 2
--   p11 String = "00000000-0000-4000-8000-000000000002"
--   p12 UInt32 = 2
--   p13 String = "00000000-0000-4000-8000-000000000002"
--   p14 UInt32 = 2
--   p15 String = "AVAL"
-- its count:
SELECT toInt64(count()) AS count FROM (SELECT {p0:String} AS c0, v1_name AS c1, e0_weight AS c2 FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p1:String} AND version = {p2:UInt32}) AS t0 ALL INNER JOIN (SELECT post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p3:String} AND version = {p4:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p5:String} AND version = {p6:UInt32} AND (name = {p7:String}))) AS t1 USING (v1_id) UNION ALL SELECT {p8:String} AS c0, v1_name AS c1, e0_weight AS c2 FROM (SELECT neuron_id AS v1_id, name AS v1_name FROM neurons WHERE dataset_id = {p9:String} AND version = {p10:UInt32}) AS t2 ALL INNER JOIN (SELECT post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p11:String} AND version = {p12:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p13:String} AND version = {p14:UInt32} AND (name = {p15:String}))) AS t3 USING (v1_id));
--   p0 String = "male@v1"
--   p1 String = "00000000-0000-4000-8000-000000000001"
--   p2 UInt32 = 1
--   p3 String = "00000000-0000-4000-8000-000000000001"
--   p4 UInt32 = 1
--   p5 String = "00000000-0000-4000-8000-000000000001"
--   p6 UInt32 = 1
--   p7 String = "AVAL"
--   p8 String = "varshney@v2"
--   p9 String = "00000000-0000-4000-8000-000000000002"
--   p10 UInt32 = 2
--   p11 String = "00000000-0000-4000-8000-000000000002"
--   p12 UInt32 = 2
--   p13 String = "00000000-0000-4000-8000-000000000002"
--   p14 UInt32 = 2
--   p15 String = "AVAL"

-- aggregates per dataset
-- MATCH (a)-[c:Electrical]->(b) IN "male"@v1, "tiny"@v1 WHERE a.class = 'AVA' RETURN count(*) AS n, sum(c.weight) AS w ORDER BY dataset
SELECT c0, c1, c2 FROM (SELECT {p0:String} AS c0, toInt64(count()) AS c1, sum(e0_weight) AS c2 FROM (SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p1:String} AND version = {p2:UInt32} AND synapse_type = 'electrical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p3:String} AND version = {p4:UInt32} AND (cell_class = {p5:String})) UNION ALL SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p6:String} AND version = {p7:UInt32} AND synapse_type = 'electrical' AND pre != post AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p8:String} AND version = {p9:UInt32} AND (cell_class = {p10:String}))) UNION ALL SELECT {p11:String} AS c0, toInt64(count()) AS c1, sum(e0_weight) AS c2 FROM (SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p12:String} AND version = {p13:UInt32} AND synapse_type = 'electrical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p14:String} AND version = {p15:UInt32} AND (cell_class = {p16:String})) UNION ALL SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p17:String} AND version = {p18:UInt32} AND synapse_type = 'electrical' AND pre != post AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p19:String} AND version = {p20:UInt32} AND (cell_class = {p21:String})))) ORDER BY c0 ASC;
--   p0 String = "male@v1"
--   p1 String = "00000000-0000-4000-8000-000000000001"
--   p2 UInt32 = 1
--   p3 String = "00000000-0000-4000-8000-000000000001"
--   p4 UInt32 = 1
--   p5 String = "AVA"
--   p6 String = "00000000-0000-4000-8000-000000000001"
--   p7 UInt32 = 1
--   p8 String = "00000000-0000-4000-8000-000000000001"
--   p9 UInt32 = 1
--   p10 String = "AVA"
--   p11 String = "tiny@v1"
--   p12 String = "00000000-0000-4000-8000-000000000003"
--   p13 UInt32 = 1
--   p14 String = "00000000-0000-4000-8000-000000000003"
--   p15 UInt32 = 1
--   p16 String = "AVA"
--   p17 String = "00000000-0000-4000-8000-000000000003"
--   p18 UInt32 = 1
--   p19 String = "00000000-0000-4000-8000-000000000003"
--   p20 UInt32 = 1
--   p21 String = "AVA"
-- its count:
SELECT toInt64(count()) AS count FROM (SELECT {p0:String} AS c0, toInt64(count()) AS c1, sum(e0_weight) AS c2 FROM (SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p1:String} AND version = {p2:UInt32} AND synapse_type = 'electrical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p3:String} AND version = {p4:UInt32} AND (cell_class = {p5:String})) UNION ALL SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p6:String} AND version = {p7:UInt32} AND synapse_type = 'electrical' AND pre != post AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p8:String} AND version = {p9:UInt32} AND (cell_class = {p10:String}))) UNION ALL SELECT {p11:String} AS c0, toInt64(count()) AS c1, sum(e0_weight) AS c2 FROM (SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p12:String} AND version = {p13:UInt32} AND synapse_type = 'electrical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p14:String} AND version = {p15:UInt32} AND (cell_class = {p16:String})) UNION ALL SELECT weight AS e0_weight FROM connections WHERE dataset_id = {p17:String} AND version = {p18:UInt32} AND synapse_type = 'electrical' AND pre != post AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p19:String} AND version = {p20:UInt32} AND (cell_class = {p21:String}))));
--   p0 String = "male@v1"
--   p1 String = "00000000-0000-4000-8000-000000000001"
--   p2 UInt32 = 1
--   p3 String = "00000000-0000-4000-8000-000000000001"
--   p4 UInt32 = 1
--   p5 String = "AVA"
--   p6 String = "00000000-0000-4000-8000-000000000001"
--   p7 UInt32 = 1
--   p8 String = "00000000-0000-4000-8000-000000000001"
--   p9 UInt32 = 1
--   p10 String = "AVA"
--   p11 String = "tiny@v1"
--   p12 String = "00000000-0000-4000-8000-000000000003"
--   p13 UInt32 = 1
--   p14 String = "00000000-0000-4000-8000-000000000003"
--   p15 UInt32 = 1
--   p16 String = "AVA"
--   p17 String = "00000000-0000-4000-8000-000000000003"
--   p18 UInt32 = 1
--   p19 String = "00000000-0000-4000-8000-000000000003"
--   p20 UInt32 = 1
--   p21 String = "AVA"

-- a large connectome: the join order follows the sizes
-- MATCH (a {type: 'sensory'})-[c:Chemical]->(b)-[d:Chemical]->(e) IN "flywire"@v1 WHERE e.class = 'MBON' RETURN a.id, e.id, c.weight, d.weight
SELECT v0_id AS c0, v2_id AS c1, e0_weight AS c2, e1_weight AS c3 FROM (SELECT pre AS v0_id, post AS v1_id, weight AS e0_weight FROM connections WHERE dataset_id = {p0:String} AND version = {p1:UInt32} AND synapse_type = 'chemical' AND pre IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p2:String} AND version = {p3:UInt32} AND (cell_type = {p4:String}))) AS t0 ALL INNER JOIN (SELECT pre AS v1_id, post AS v2_id, weight AS e1_weight FROM connections WHERE dataset_id = {p5:String} AND version = {p6:UInt32} AND synapse_type = 'chemical' AND post IN (SELECT neuron_id FROM neurons WHERE dataset_id = {p7:String} AND version = {p8:UInt32} AND (cell_class = {p9:String}))) AS t1 USING (v1_id);
--   p0 String = "00000000-0000-4000-8000-000000000004"
--   p1 UInt32 = 1
--   p2 String = "00000000-0000-4000-8000-000000000004"
--   p3 UInt32 = 1
--   p4 String = "sensory"
--   p5 String = "00000000-0000-4000-8000-000000000004"
--   p6 UInt32 = 1
--   p7 String = "00000000-0000-4000-8000-000000000004"
--   p8 UInt32 = 1
--   p9 String = "MBON"

-- capped by maxRows
-- MATCH (a) IN "male"@v1 RETURN a.id
SELECT neuron_id AS c0 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32} LIMIT 100;
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
-- its count:
SELECT toInt64(count()) AS count FROM (SELECT neuron_id AS c0 FROM neurons WHERE dataset_id = {p0:String} AND version = {p1:UInt32});
--   p0 String = "00000000-0000-4000-8000-000000000001"
--   p1 UInt32 = 1
