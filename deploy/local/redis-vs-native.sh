#!/usr/bin/env bash
# Plumb's Redis driver against redis-benchmark on the local server, side by side: alternates
# pairs of runs of
#   (a) redis-benchmark -c 1 -P <depth> XADD <stream> MAXLEN ~ <cap> * p <1024 bytes>
#   (b) bin/benchmark -d driver-redis/redis.yaml workloads/redis-vs-native.yaml
# with the pipelining depth and MAXLEN cap read from redis.yaml (so both send the same command
# the same way: one connection, <depth> XADDs written together, all <depth> replies read before
# the next <depth> are written), 1 KB entries, one stream, and prints each pair (with the load
# average at its end) and the median ratio Plumb/native of the achieved rates.
# redis-benchmark only produces, so Plumb's workload only produces too: no subscriptions and no
# consumer sharing the cores, and nothing drains the stream on either side (MAXLEN trims it).
# (Redis 7.0's redis-benchmark has no built-in `-t xadd` test, so the XADD is given explicitly;
# it is what `-t xadd` runs in later versions, plus redis.yaml's MAXLEN cap.) Everything shares
# this host's cores, so only the ratio of runs taken side by side means anything.
#
# Builds nothing: run `mvn -q package -DskipTests` first. Starts the local server if it is not
# running (and stops it again at the end in that case).
#
# Environment:
#   PLUMB_REDISVN_PAIRS     pairs of runs (default 5: an estimate with a 93.8% interval)
#   PLUMB_REDISVN_REQUESTS  XADDs per redis-benchmark run (default 3000000, ~15-25 s here)
#   PLUMB_REDIS_PORT        server port (default 6379)
set -euo pipefail

# shellcheck source=lib/native-pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/native-pairs.sh"
# Before anything starts: a busy host makes the ratios meaningless; then PAIRS from
# PLUMB_REDISVN_PAIRS (lib/native-pairs.sh; the runs' output goes to a temporary directory, not OUT).
native_pairs_begin redis REDISVN
REQUESTS="${PLUMB_REDISVN_REQUESTS:-3000000}"
PORT="${PLUMB_REDIS_PORT:-6379}"

command -v redis-benchmark >/dev/null ||
  die "redis-benchmark not found: run 'apt-get install -y redis-tools'"

# pipelineDepth and maxLen of the driver file: what both sides use.
read -r DEPTH MAXLEN < <(python3 - "$DRIVER_FILE" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
def field(name, default):
    m = re.search(r'^' + name + r':\s*(\d+)', text, re.M)
    return m.group(1) if m else default
print(field('pipelineDepth', '16'), field('maxLen', '0'))
EOF
)

native_pairs_start_broker redis
TMP="$(mktemp -d "${TMPDIR:-/tmp}/redis-vs-native.XXXXXX")"
STREAM="rvn-native-$$"
cleanup() {
  redis-cli -h 127.0.0.1 -p "$PORT" del "$STREAM" >/dev/null 2>&1 || true
  rm -rf "$TMP"
  native_pairs_stop_broker
}
trap cleanup EXIT

# Both sides run against the server as redis.yaml leaves it (no AOF).
redis-cli -h 127.0.0.1 -p "$PORT" config set appendonly no >/dev/null

PAYLOAD="$(head -c 1024 /dev/zero | tr '\0' x)"
TRIM=()
if ((MAXLEN > 0)); then
  TRIM=(MAXLEN '~' "$MAXLEN")
fi

native_run() {
  redis-cli -h 127.0.0.1 -p "$PORT" del "$STREAM" >/dev/null
  redis-benchmark -h 127.0.0.1 -p "$PORT" -c 1 -P "$DEPTH" -n "$REQUESTS" --csv \
    xadd "$STREAM" "${TRIM[@]}" '*' p "$PAYLOAD" >"$TMP/native-$1.csv" 2>"$TMP/native-$1.err" ||
    { cat "$TMP/native-$1.err" >&2; die "redis-benchmark failed"; }
  redis-cli -h 127.0.0.1 -p "$PORT" del "$STREAM" >/dev/null
  # CSV: "test","rps",...; the data line is the last one.
  tail -n 1 "$TMP/native-$1.csv" | python3 -c 'import csv,sys; print(next(csv.reader(sys.stdin))[1])'
}

plumb_run() {
  native_pairs_benchmark "$1" "$TMP" --driver-set "redisHost=127.0.0.1" --driver-set "redisPort=$PORT"
  local acknowledged
  # Stops if the target set the rate: an exit of its own, as bash drops set -e in the command
  # substitution plumb_run runs in.
  acknowledged="$(native_pairs_publish_rate "$TMP/plumb-$1.json")" || exit 1
  # Only acknowledged sends count; a run with failed sends is not a valid comparison.
  python3 - "$TMP/plumb-$1.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
if r["counters"]["failed"]:
    sys.exit(f"redis-vs-native: Plumb run had {r['counters']['failed']} failed sends")
EOF
  echo "$acknowledged"
}

echo "Redis Streams XADD throughput on 127.0.0.1:$PORT: redis-benchmark vs Plumb, $PAIRS pairs"
echo "  both: one connection writing $DEPTH XADDs at a time and reading their $DEPTH replies before the"
echo "        next $DEPTH (at most $DEPTH in flight), MAXLEN ~ $MAXLEN, 1024-byte entries (field p), one stream,"
echo "        no AOF; producer only: no consumer on either side (redis-benchmark cannot consume)"
echo "  native: redis-benchmark -c 1 -P $DEPTH -n $REQUESTS xadd <stream> ${TRIM[*]} * p <1024 bytes>"
echo "  plumb:  $(basename "$DRIVER_FILE") with $(basename "$WORKLOAD") (open loop above what the server takes)"
echo

print_pair() {
  printf 'pair %d: native %10.0f msg/s   plumb %10.0f msg/s   plumb/native %s' "$1" "$3" "$4" "$2"
}

native_pairs_run "$PAIRS" "$REPO/bin/benchmark"
