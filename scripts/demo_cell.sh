#!/usr/bin/env bash
# A single-node Spindle cell on this machine (`spindle rm` and one `spindle nm`
# that runs real containers) with a demo application through it: `spindle
# shell`, our own DistributedShell, whose ApplicationMaster runs in a
# container and starts three more. Every process talks Hadoop's wire
# protocols on 127.0.0.1, on ports picked at run time. Everything the cell
# writes stays in a temporary directory, removed at the end unless
# SPINDLE_KEEP_DEMO=1.
#
# Then a short staging-cell replay (`spindle replay --mode cell`): Hadoop's
# SLS sample trace (../shared/traces/hadoop-sls/inputsls.json: two MapReduce
# jobs in two queues) through a real `spindle rm` with its RocksDB state
# store and a `spindle nm` hosting the trace's 19 nodes, at 20x speed, with
# SLS's own capacity-scheduler.xml; the report (summary.txt, report.json,
# series.csv, report.html) goes to the folder printed at the end
# (SPINDLE_REPLAY_REPORT, default build/replay-report).
#
# Exit status 0 iff the application SUCCEEDED, every container wrote its
# line, and the replay ran every task once with no violation.
#   scripts/demo_cell.sh /path/to/spindle
set -euo pipefail
spindle="${1:?usage: demo_cell.sh /path/to/spindle}"

work="$(mktemp -d /tmp/spindle-demo.XXXXXX)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [[ "${SPINDLE_KEEP_DEMO:-0}" != 1 ]]; then rm -rf "$work"; else echo "demo files: $work"; fi
}
trap cleanup EXIT

property() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }

mkdir -p "$work/rm-conf" "$work/nm-conf" "$work/nm/local" "$work/nm/logs"
{
  echo '<configuration>'
  for key in address scheduler.address resource-tracker.address admin.address webapp.address; do
    property "yarn.resourcemanager.$key" 127.0.0.1:0
  done
  property yarn.scheduler.minimum-allocation-mb 64
  property spindle.store.path "$work/rmstore"
  echo '</configuration>'
} >"$work/rm-conf/yarn-site.xml"
{
  echo '<configuration>'
  property yarn.scheduler.capacity.root.queues default
  property yarn.scheduler.capacity.root.default.capacity 100
  echo '</configuration>'
} >"$work/rm-conf/capacity-scheduler.xml"

"$spindle" rm --conf "$work/rm-conf" --ports-file "$work/rm.ports" 2>"$work/rm.log" &
pids+=($!)
for _ in $(seq 100); do [[ -s "$work/rm.ports" ]] && break; sleep 0.1; done
[[ -s "$work/rm.ports" ]] || { echo "spindle rm did not start:"; cat "$work/rm.log"; exit 1; }
port() { grep "^$1=" "$work/rm.ports" | cut -d= -f2; }
echo "spindle rm: clients 127.0.0.1:$(port client), AMs 127.0.0.1:$(port scheduler)," \
  "nodes 127.0.0.1:$(port resource-tracker), admin 127.0.0.1:$(port admin)," \
  "web UI and REST http://127.0.0.1:$(port web)/cluster"

{
  echo '<configuration>'
  property yarn.resourcemanager.resource-tracker.address "127.0.0.1:$(port resource-tracker)"
  property yarn.nodemanager.hostname 127.0.0.1
  property yarn.nodemanager.address 127.0.0.1:0
  property yarn.nodemanager.webapp.address 127.0.0.1:0
  property yarn.nodemanager.resource.memory-mb 4096
  property yarn.nodemanager.resource.cpu-vcores 4
  property yarn.nodemanager.local-dirs "$work/nm/local"
  property yarn.nodemanager.log-dirs "$work/nm/logs"
  echo '</configuration>'
} >"$work/nm-conf/yarn-site.xml"
"$spindle" nm --conf "$work/nm-conf" 2>"$work/nm.log" &
pids+=($!)

# The demo: three containers each write a line into the node's log dir.
status=0
"$spindle" shell --rm "127.0.0.1:$(port client)" --rm-scheduler "127.0.0.1:$(port scheduler)" \
  --num-containers 3 --memory-mb 128 --am-memory-mb 128 --timeout-seconds 120 \
  --command 'echo "hello from $CONTAINER_ID on $NM_HOST:$NM_PORT" >"$LOG_DIRS/hello.txt"' ||
  status=$?
echo "--- what the containers wrote:"
find "$work/nm/logs" -name hello.txt -exec cat {} + 2>/dev/null | sort || true
echo "--- the ApplicationMaster's output:"
find "$work/nm/logs" -path '*_000001/stdout' -exec cat {} + 2>/dev/null || true
lines="$(find "$work/nm/logs" -name hello.txt -exec cat {} + 2>/dev/null | grep -c '^hello from container_' || true)"
if [[ $status -eq 0 && "$lines" -ne 3 ]]; then
  echo "expected 3 lines from the containers, found $lines"
  status=1
fi
if [[ $status -ne 0 ]]; then
  echo "the demo application failed; logs follow"
  tail -n 30 "$work/rm.log" "$work/nm.log"
  find "$work/nm/logs" -name stderr -exec tail -n 20 {} + 2>/dev/null || true
fi
if [[ $status -ne 0 ]]; then exit $status; fi

echo "--- a staging-cell replay of Hadoop's SLS sample trace"
here="$(cd "$(dirname "$0")/.." && pwd)"
traces="$here/../shared/traces/hadoop-sls"
report="${SPINDLE_REPLAY_REPORT:-$here/build/replay-report}"
"$spindle" replay --mode cell --trace "$traces/inputsls.json" --nodes-file "$traces/nodes.json" \
  --queues "$traces/capacity-scheduler.xml" --speed 20 --heartbeat-ms 20 --store rocksdb \
  --compare parsync:latency-first,statesync --work-dir "$work/replay" --out "$report" \
  --no-progress 2>"$work/replay.log" || status=$?
if [[ $status -ne 0 ]]; then
  echo "the replay failed; its log follows"
  tail -n 30 "$work/replay.log"
else
  echo "replay report: $report/report.html"
fi
exit $status
