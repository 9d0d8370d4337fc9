#!/usr/bin/env bash
# Plumb's core NATS driver against `nats bench` (natscli) on the local server, side by side:
# alternates pairs of runs of
#   (a) nats bench sub <subject> + nats bench pub <subject>, 1 KB messages, one of each
#   (b) bin/benchmark -d driver-nats/nats.yaml workloads/nats-vs-native.yaml
#       (one producer, one consumer, one subject, 1 KB)
# and prints each pair (publish rate, and the subscriber's rate for reference) and the median
# ratio Plumb/native of the achieved publish rates. Everything shares this host's cores, so only
# the ratio of runs taken side by side means anything.
#
# natscli is built once from the Go module proxy into ${PLUMB_STATE_DIR:-<repo>/.plumb}/bin
# (github.com/nats-io/natscli v0.5.0, needs Go). Builds nothing else: run
# `mvn -q package -DskipTests` first. Starts the local server if it is not running (and stops it
# again at the end in that case).
#
# Environment:
#   PLUMB_NVN_PAIRS     pairs of runs (default 5: an estimate with a 93.8% interval)
#   PLUMB_NVN_MSGS      messages per nats bench run (default 3000000, ~15-25 s here)
#   PLUMB_NATS_PORT     client port (default 4222); PLUMB_NATS_MONITOR_PORT (default 8222)
set -euo pipefail

# shellcheck source=lib/native-pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/native-pairs.sh"
# Before anything starts: a busy host makes the ratios meaningless; then PAIRS from
# PLUMB_NVN_PAIRS (lib/native-pairs.sh; the runs' output goes to a temporary directory, not OUT).
native_pairs_begin nats NVN
STATE_DIR="${PLUMB_STATE_DIR:-$REPO/.plumb}"
plumb_settings NVN MSGS=3000000
# Node 1 of the local NATS: the settings deploy/local/nats.sh reads.
plumb_settings NATS PORT=4222 MONITOR_PORT=8222
URL="nats://127.0.0.1:$PORT"
NATSCLI_VERSION="v0.5.0"
# One binary per version, so a new pin builds afresh instead of running an older build.
NATS="$STATE_DIR/bin/nats-$NATSCLI_VERSION"

if [[ ! -x "$NATS" ]]; then
  command -v go >/dev/null || die "go is needed to build natscli ($NATSCLI_VERSION)"
  echo "building natscli $NATSCLI_VERSION into $STATE_DIR/bin ..."
  mkdir -p "$STATE_DIR/bin"
  # `go install pkg@version` also asks the proxy for the module's version list (for deprecation
  # notices), which a pinned-versions-only proxy refuses; downloading the pinned module and
  # building it from the module cache needs only that version. The checksum database has no
  # entry for this one module here (404), so it alone is exempt (GONOSUMDB); its dependencies are
  # still verified against its own go.sum when it builds.
  src="$(GONOSUMDB=github.com/nats-io/natscli GOFLAGS=-mod=mod \
    go mod download -json "github.com/nats-io/natscli@$NATSCLI_VERSION" |
    python3 -c 'import json,sys
info = json.load(sys.stdin)
if "Dir" not in info:
    sys.exit(info.get("Error", "no module directory"))
print(info["Dir"])')" ||
    die "cannot download github.com/nats-io/natscli@$NATSCLI_VERSION"
  (cd "$src" && GOFLAGS=-mod=mod go build -o "$NATS" ./nats) || die "natscli build failed"
fi

native_pairs_start_broker nats
TMP="$(mktemp -d "${TMPDIR:-/tmp}/nats-vs-native.XXXXXX")"
SUB_PID=""
cleanup() {
  if [[ -n "$SUB_PID" ]]; then
    kill "$SUB_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
  native_pairs_stop_broker
}
trap cleanup EXIT

# True once some connection on the server holds a subscription on subject $1.
subscribed() {
  curl -fsS --max-time 2 "http://127.0.0.1:$MONITOR_PORT/connz?subs=1&limit=1024" 2>/dev/null |
    python3 -c 'import json,sys
subject = sys.argv[1]
conns = json.load(sys.stdin).get("connections") or []
sys.exit(0 if any(subject in (c.get("subscriptions_list") or []) for c in conns) else 1)' "$1"
}

# "NATS Core NATS publisher stats: 511,671 msgs/sec ~ ..." -> 511671 (natscli 0.5)
rate_of() {
  grep "$1 stats:" "$2" | tail -n 1 | sed -E 's/.*stats: ([0-9,.]+) msgs\/sec.*/\1/' | tr -d ,
}

native_run() {
  local subject="nvn.native.$1.$$"
  # The subscriber gives up after a bounded time: core NATS may drop messages under load, and
  # then it would wait forever for the missing ones.
  timeout 300 "$NATS" -s "$URL" bench sub "$subject" --msgs "$MSGS" --size 1024 --no-progress \
    >"$TMP/native-sub-$1.out" 2>&1 &
  SUB_PID=$!
  local deadline=$((SECONDS + 20))
  until subscribed "$subject"; do
    ((SECONDS < deadline)) || die "nats bench sub did not subscribe within 20 s"
    sleep 0.1
  done
  "$NATS" -s "$URL" bench pub "$subject" --msgs "$MSGS" --size 1024 --no-progress \
    >"$TMP/native-pub-$1.out" 2>&1 ||
    { cat "$TMP/native-pub-$1.out" >&2; die "nats bench pub failed"; }
  wait "$SUB_PID" || echo "pair $1: nats bench sub did not receive all $MSGS messages" >&2
  SUB_PID=""
  echo "$(rate_of publisher "$TMP/native-pub-$1.out") $(rate_of subscriber "$TMP/native-sub-$1.out")"
}

plumb_run() {
  native_pairs_benchmark "$1" "$TMP" --driver-set "natsHostUrl=$URL"
  local acknowledged
  # Stops if the target set the rate: an exit of its own, as bash drops set -e in the command
  # substitution plumb_run runs in.
  acknowledged="$(native_pairs_publish_rate "$TMP/plumb-$1.json")" || exit 1
  python3 -c 'import json,sys
t = json.load(open(sys.argv[1]))["throughput"]
print(sys.argv[2], t.get("consumeRateMsgPerSec", "nan"))' "$TMP/plumb-$1.json" "$acknowledged"
}

echo "Core NATS pub/sub throughput on $URL: nats bench vs Plumb, $PAIRS pairs"
echo "  both: one publisher and one subscriber on one subject, 1024-byte messages, no persistence"
echo "  native: natscli $NATSCLI_VERSION: nats bench sub + nats bench pub, --msgs $MSGS --size 1024"
echo "  plumb:  $(basename "$DRIVER_FILE") with $(basename "$WORKLOAD") (open loop above what the server takes)"
echo

print_pair() {
  local native native_sub plumb plumb_sub
  read -r native native_sub <<<"$3"
  read -r plumb plumb_sub <<<"$4"
  printf 'pair %d: native pub %10.0f msg/s (sub %10.0f)   plumb pub %10.0f msg/s (consume %10.0f)   plumb/native %s' \
    "$1" "$native" "${native_sub:-0}" "$plumb" "$plumb_sub" "$2"
}

native_pairs_run "$PAIRS" "$REPO/bin/benchmark"
