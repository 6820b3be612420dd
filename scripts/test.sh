#!/usr/bin/env bash
# Runs the suite on two engine sets at once: on the embedded engines (PGlite, chDB, local objects) and on real servers
# (PostgreSQL with a fresh database per test file, a ClickHouse server), each file whose behaviour depends on the
# engines in both and the others in one (test/kit/suite-plan.ts); beside them, the neurodata tests on a ClickHouse
# cluster, and the Python client's tests. `scripts/test.sh embedded|server|python` runs one of them.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-both}
shift || true
results=$(mktemp -d)
status=0
ch_dir=""
cluster_dir=""

cleanup() {
  # A server-mode set-up that gave up still lets the runs under way finish, and shows them.
  for name in embedded cluster; do
    pid_var="${name}_pid"
    if [ -n "${!pid_var:-}" ] && kill -0 "${!pid_var}" 2> /dev/null; then
      wait "${!pid_var}"
      cat "$results/$name.log"
    fi
  done
  [ -n "$ch_dir" ] && scripts/clickhouse-server.sh stop "$ch_dir" && rm -rf "$ch_dir"
  [ -n "$cluster_dir" ] && scripts/clickhouse-cluster.sh stop "$cluster_dir" && rm -rf "$cluster_dir"
}
trap cleanup EXIT

run() { # name, then env assignments
  local name=$1; shift
  echo "== test suite: $name engines"
  # The full suite runs each engine-independent file in one of the two sets only (test/kit/suite-plan.ts).
  local plan=()
  [ ${#extra[@]} -eq 0 ] && [ "$name" != cluster ] && plan=(TEST_ENGINE_SET="$name")
  env "$@" "${plan[@]}" npx vitest run --reporter=default --reporter=json --outputFile.json="$results/$name.json" "${extra[@]}" || status=1
}
extra=("$@")

# Both engine sets at once: the server run spends much of its time waiting on PostgreSQL and ClickHouse, which the
# embedded run fills. The embedded run's output is shown when it ends, so the two do not interleave.
embedded_pid=""
cluster_pid=""
if [ "$mode" = both ]; then
  (run embedded -u DATABASE_URL -u CLICKHOUSE_URL > "$results/embedded.log" 2>&1; exit $status) &
  embedded_pid=$!
elif [ "$mode" = embedded ]; then
  run embedded -u DATABASE_URL -u CLICKHOUSE_URL
fi

if [ "$mode" = both ] || [ "$mode" = server ]; then
  db_url=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
  if ! node -e 'const c=new (require("pg").Client)(process.argv[1]);c.connect().then(()=>c.end(),()=>process.exit(1))' "$db_url" 2> /dev/null; then
    if [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_ctlcluster > /dev/null && [ -d /etc/postgresql ]; then
      echo "starting the local PostgreSQL cluster"
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
      sleep 2
    fi
    node -e 'const c=new (require("pg").Client)(process.argv[1]);c.connect().then(()=>c.end(),()=>process.exit(1))' "$db_url" 2> /dev/null \
      || { echo "PostgreSQL is not reachable at $db_url (set TEST_DATABASE_URL)" >&2; exit 1; }
  fi
  ch_url=${TEST_CLICKHOUSE_URL:-}
  if [ -z "$ch_url" ]; then
    if ! command -v clickhouse-server > /dev/null && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
      echo "installing Debian's clickhouse-server for the server-mode run"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clickhouse-server > /dev/null 2>&1 \
        || { apt-get update -qq > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clickhouse-server > /dev/null; }
    fi
    command -v clickhouse-server > /dev/null || { echo "clickhouse-server is not installed (apt-get install clickhouse-server) or set TEST_CLICKHOUSE_URL" >&2; exit 1; }
    ch_dir=$(mktemp -d)
    port=$((20000 + RANDOM % 20000))
    scripts/clickhouse-server.sh start "$ch_dir" "$port" || exit 1
    ch_url="http://127.0.0.1:$port"
  fi
  # The column store's cluster tests (subgraphs/neurodata/test/data-store-cluster.test.ts) need a two-shard cluster:
  # two more clickhouse-server processes and the ZooKeeper that ON CLUSTER DDL needs (Debian's zookeeper package,
  # installed by .ci/run). About 2 s to start; without ZooKeeper those tests are skipped.
  cluster_url=${TEST_CLICKHOUSE_CLUSTER_URL:-}
  if [ -z "$cluster_url" ] && command -v clickhouse-server > /dev/null; then
    if [ -f /usr/share/java/zookeeper.jar ]; then
      cluster_dir=$(mktemp -d)
      cport=$((20000 + RANDOM % 20000))
      [ -n "$ch_dir" ] && [ $((cport > port ? cport - port : port - cport)) -lt 8 ] && cport=$((port + 8))
      scripts/clickhouse-cluster.sh start "$cluster_dir" "$cport" $((cport + 2)) $((cport + 4)) > /dev/null || exit 1
      cluster_url="http://127.0.0.1:$cport"
    else
      echo "ZooKeeper is not installed (apt-get install zookeeper): the ClickHouse cluster tests are skipped"
    fi
  fi
  # The service itself on the cluster (CLICKHOUSE_CLUSTER: local shards behind Distributed tables): the neurodata
  # tests once more, unless a subset of tests was asked for. Beside the other runs: most of its time is waiting on
  # ZooKeeper for ON CLUSTER DDL, which the others fill.
  if [ -n "$cluster_url" ] && [ ${#extra[@]} -eq 0 ]; then
    (
      extra=(subgraphs/neurodata/test test/http/neurodata-access.test.ts)
      run cluster DATABASE_URL="$db_url" CLICKHOUSE_URL="$cluster_url" CLICKHOUSE_CLUSTER="${TEST_CLICKHOUSE_CLUSTER:-neurodata_test}" \
        TEST_CLICKHOUSE_CLUSTER_URL="$cluster_url" TEST_CLICKHOUSE_CLUSTER="${TEST_CLICKHOUSE_CLUSTER:-neurodata_test}" > "$results/cluster.log" 2>&1
      exit $status
    ) &
    cluster_pid=$!
  fi
  run server DATABASE_URL="$db_url" CLICKHOUSE_URL="$ch_url" TEST_CLICKHOUSE_DIR="$ch_dir" \
    TEST_CLICKHOUSE_CLUSTER_URL="$cluster_url" TEST_CLICKHOUSE_CLUSTER="${TEST_CLICKHOUSE_CLUSTER:-neurodata_test}"
fi

# The Python client (clients/python) against a service of its own. In the full run it starts when the server run
# ends, beside the rest of the embedded run: the two runs end close together, so its service competes with little.
python_pid=""
if [ "$mode" = both ] && [ ${#extra[@]} -eq 0 ]; then
  (bash scripts/python-client.sh > "$results/python.log" 2>&1 || { echo "the Python client's checks failed" >> "$results/python.log"; exit 1; }) &
  python_pid=$!
fi

for name in cluster embedded; do
  pid_var="${name}_pid"
  if [ -n "${!pid_var:-}" ]; then
    wait "${!pid_var}" || status=1
    cat "$results/$name.log"
    rm -f "$results/$name.log"
    eval "${name}_pid="
  fi
done

if [ -n "$python_pid" ]; then
  wait "$python_pid" || status=1
  echo "== test suite: Python client"
  cat "$results/python.log"
  rm -f "$results/python.log"
elif [ "$mode" = python ]; then
  echo "== test suite: Python client"
  bash scripts/python-client.sh || { status=1; echo "the Python client's checks failed"; }
  exit $status
fi

node -e '
const fs = require("fs"); let p = 0, f = 0, s = 0; const failures = [];
for (const file of fs.readdirSync(process.argv[1])) {
  const r = JSON.parse(fs.readFileSync(process.argv[1] + "/" + file, "utf8"));
  p += r.numPassedTests; f += r.numFailedTests; s += r.numPendingTests + (r.numTodoTests || 0);
  if (!r.success && r.numFailedTests === 0) f += 1; // a file that failed to load
  // Named again here, last, because CI keeps only the tail of the output.
  for (const t of r.testResults || []) {
    if (t.status === "failed" && !(t.assertionResults || []).some((a) => a.status === "failed")) {
      failures.push(`${file.replace(/\.json$/, "")}: ${t.name}: ${(t.message || "").split("\n")[0].slice(0, 300)}`);
    }
    for (const a of t.assertionResults || []) {
      if (a.status === "failed") {
        failures.push(`${file.replace(/\.json$/, "")}: ${t.name} > ${a.fullName}: ${(a.failureMessages || [""])[0].split("\n")[0].slice(0, 300)}`);
      }
    }
  }
}
for (const line of failures) console.log(`FAILED ${line}`);
console.log(`tests: ${p} passed, ${f} failed, ${s} skipped`);
' "$results" || status=1
exit $status
