import { Session } from 'chdb';
import { writeFileSync, createReadStream } from 'node:fs';
const N = 3_000_000;
const parts: string[] = []; let s = '';
for (let i = 0; i < N; i++) { s += `0b0e7d1c-1111-4222-8333-444455556666\t1\t720575940${600000000 + (i * 7919) % 382000000}\t720575940${600000000 + (i * 104729) % 382000000}\tchemical\t${5 + (i % 50)}\n`; if (s.length > 4 << 20) { parts.push(s); s = ''; } }
parts.push(s);
writeFileSync('/tmp/scratch/c.tsv', parts.join(''));
const sess = new Session('/tmp/scratch/chdb7');
const cols = 'dataset_id, version, pre, post, synapse_type, weight';
sess.query("CREATE TABLE IF NOT EXISTS c (dataset_id String, version UInt32, pre String, post String, synapse_type Enum8('chemical' = 1, 'electrical' = 2), weight Float64) ENGINE = MergeTree PARTITION BY (dataset_id, version) ORDER BY (dataset_id, version, pre, post)");
const time = async (l: string, f: () => Promise<unknown>) => { sess.query('TRUNCATE TABLE c'); const c0 = process.cpuUsage(); const t = performance.now(); await f(); const s2 = (performance.now() - t) / 1000; const cpu = process.cpuUsage(c0); console.log(l.padEnd(40), s2.toFixed(2), 's', String(Math.round(N / s2)).padStart(9), 'rows/s  process cpu', ((cpu.user + cpu.system) / 1e6).toFixed(2), 's'); };
const gather = (size: number) => { const out: string[] = []; let cur: string[] = []; let len = 0; for (const p of parts) { cur.push(p); len += p.length; if (len >= size) { out.push(cur.join('')); cur = []; len = 0; } } if (len) out.push(cur.join('')); return out; };
const g = gather(64 << 20);
for (let round = 0; round < 2; round++) {
await time('file()', () => sess.queryAsync(`INSERT INTO c (${cols}) SELECT * FROM file('/tmp/scratch/c.tsv', 'TabSeparated', 'dataset_id String, version UInt32, pre String, post String, synapse_type Enum8(\\'chemical\\' = 1, \\'electrical\\' = 2), weight Float64')`, { format: 'CSV' }));
await time('file() max_threads=1', () => sess.queryAsync(`INSERT INTO c (${cols}) SELECT * FROM file('/tmp/scratch/c.tsv', 'TabSeparated', 'dataset_id String, version UInt32, pre String, post String, synapse_type Enum8(\\'chemical\\' = 1, \\'electrical\\' = 2), weight Float64') SETTINGS max_threads = 1, input_format_parallel_parsing = 0`, { format: 'CSV' }));
await time('queryAsync 64MB (strings ready)', async () => { for (const b of g) await sess.queryAsync(`INSERT INTO c (${cols}) FORMAT TabSeparated\n` + b, { format: 'CSV' }); });
await time('raw insert Buffer 64MB (ready)', async () => { const bufs = g.map((b) => Buffer.from(b)); for (const b of bufs) await sess.insert({ table: 'c', values: b, format: 'TabSeparated', columns: cols.split(', ') }); });
await time('read file as strings only', async () => { let n = 0; for await (const p of createReadStream('/tmp/scratch/c.tsv', { encoding: 'utf8', highWaterMark: 4 << 20 })) n += (p as string).length; });
}
sess.close();
