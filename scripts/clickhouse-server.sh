#!/usr/bin/env bash
# Starts a throw-away ClickHouse server on loopback for the server-mode test run.
# Usage: scripts/clickhouse-server.sh start <dir> <http_port> | stop <dir>
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?data directory}
case "$cmd" in
start)
  port=${3:-18123}
  mkdir -p "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas" "$dir/log"
  cat > "$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$dir/log/server.log</log><errorlog>$dir/log/server.err.log</errorlog><size>10M</size><count>2</count></logger>
  <http_port>$port</http_port>
  <tcp_port>$((port + 1))</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <max_connections>512</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <max_concurrent_queries>100</max_concurrent_queries>
  <mark_cache_size>536870912</mark_cache_size>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
</yandex>
XML
  cat > "$dir/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
  nohup clickhouse-server --config-file="$dir/config.xml" > "$dir/log/stdout.log" 2>&1 &
  echo $! > "$dir/pid"
  # Up to 90 s: beside the test runs on two busy cores, Debian's server has taken more than 30 s to answer.
  pid=$(cat "$dir/pid")
  for _ in $(seq 1 180); do
    if curl -sf "http://127.0.0.1:$port/ping" > /dev/null; then echo "clickhouse-server ready on 127.0.0.1:$port"; exit 0; fi
    kill -0 "$pid" 2>/dev/null || { echo "clickhouse-server exited at start (its ports $port and $((port + 1)) must be free)" >&2; break; }
    sleep 0.5
  done
  echo "clickhouse-server did not start on 127.0.0.1:$port; log:" >&2; tail -n 20 "$dir/log/"*.log >&2; exit 1 ;;
stop)
  [ -f "$dir/pid" ] || exit 0
  pid=$(cat "$dir/pid")
  kill "$pid" 2>/dev/null || exit 0
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null || true ;;
esac
