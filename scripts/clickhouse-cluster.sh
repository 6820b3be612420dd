#!/usr/bin/env bash
# Starts a throw-away two-shard ClickHouse cluster on loopback: two clickhouse-server instances (one shard each,
# cluster `neurodata_test` in their remote_servers) and the ZooKeeper that ON CLUSTER DDL needs on ClickHouse 18.16.
# Usage: scripts/clickhouse-cluster.sh start <dir> <http_port1> <http_port2> [zookeeper_port] | stop <dir>
# Each node also listens on its HTTP port + 1 (native protocol, which Distributed tables and ON CLUSTER use), so
# keep the two HTTP ports at least 2 apart. ZooKeeper defaults to <http_port2> + 2.
# Needs Debian's clickhouse-server and zookeeper packages (the latter only for its jar: no service is started).
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?data directory}
here=$(cd "$(dirname "$0")" && pwd)
zk_jar=/usr/share/java/zookeeper.jar

port_open() { (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

case "$cmd" in
start)
  p1=${3:?http port of the first node}; p2=${4:?http port of the second node}; zk=${5:-$((p2 + 2))}
  [ -f "$zk_jar" ] || { echo "ZooKeeper is not installed ($zk_jar): apt-get install zookeeper" >&2; exit 1; }
  mkdir -p "$dir/zookeeper/data"
  cat > "$dir/zookeeper/log4j.properties" <<'EOF'
log4j.rootLogger=WARN, CONSOLE
log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender
log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout
log4j.appender.CONSOLE.layout.ConversionPattern=%d %p %c{1}: %m%n
EOF
  # Standalone ZooKeeper in the foreground of its own process; a small heap is plenty for a DDL queue.
  nohup java -Xmx128m -XX:+UseSerialGC -Dzookeeper.admin.enableServer=false -Dlog4j.configuration="file:$dir/zookeeper/log4j.properties" \
    -cp "$dir/zookeeper:$zk_jar" org.apache.zookeeper.server.ZooKeeperServerMain "$zk" "$dir/zookeeper/data" \
    > "$dir/zookeeper/stdout.log" 2>&1 &
  echo $! > "$dir/zookeeper/pid"
  for _ in $(seq 1 60); do port_open "$zk" && break; sleep 0.25; done
  port_open "$zk" || { echo "ZooKeeper did not start; log:" >&2; tail -20 "$dir/zookeeper/stdout.log" >&2; exit 1; }

  n=0
  for port in "$p1" "$p2"; do
    n=$((n + 1))
    mkdir -p "$dir/node$n/config.d"
    # Merged into the config.xml that clickhouse-server.sh writes beside it (ClickHouse reads config.d/*.xml).
    cat > "$dir/node$n/config.d/cluster.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <remote_servers>
    <neurodata_test>
      <shard><replica><host>127.0.0.1</host><port>$((p1 + 1))</port></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>$((p2 + 1))</port></replica></shard>
    </neurodata_test>
  </remote_servers>
  <zookeeper><node><host>127.0.0.1</host><port>$zk</port></node><session_timeout_ms>30000</session_timeout_ms></zookeeper>
  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>
  <macros><shard>$n</shard><replica>node$n</replica></macros>
</yandex>
XML
    "$here/clickhouse-server.sh" start "$dir/node$n" "$port"
  done
  echo "cluster neurodata_test ready: http://127.0.0.1:$p1 and http://127.0.0.1:$p2 (ZooKeeper 127.0.0.1:$zk)" ;;
stop)
  for n in 1 2; do [ -d "$dir/node$n" ] && "$here/clickhouse-server.sh" stop "$dir/node$n"; done
  if [ -f "$dir/zookeeper/pid" ]; then
    pid=$(cat "$dir/zookeeper/pid")
    kill "$pid" 2> /dev/null || exit 0
    for _ in $(seq 1 40); do kill -0 "$pid" 2> /dev/null || exit 0; sleep 0.25; done
    kill -9 "$pid" 2> /dev/null || true
  fi ;;
*) echo "usage: $0 start <dir> <http_port1> <http_port2> [zookeeper_port] | stop <dir>" >&2; exit 2 ;;
esac
