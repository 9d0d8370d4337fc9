# Sourced by deploy/local/<broker>-vs-native.sh: the harness they share. A script defines
#   native_run I   runs the broker's own tool once (pair I); prints its rate first, then anything else
#   plumb_run I    runs bin/benchmark once (pair I); prints its rate first, then anything else
#   print_pair I RATIO "NATIVE" "PLUMB"
#                  prints the pair's line from what the two runs printed
# and, where each pair needs it (a restarted broker, a warm-up run),
#   before_pair I  runs before pair I's two runs
# and calls native_pairs_begin before it starts anything, then native_pairs_run. Sourcing this file
# sets REPO (the repository root) and NATIVE_PAIRS_JAVA_OPTS, and defines plumb_settings
# (lib/settings.sh), which reads a script's own PLUMB_<prefix>_* settings; native_pairs_begin sets
# Plumb's side, DRIVER_FILE (driver-<broker>/<broker>.yaml) and WORKLOAD
# (workloads/<broker>-vs-native.yaml), which a script may set otherwise after it.
#
# Environment:
#   PLUMB_VN_MAX_LOAD   the highest 1-minute load average at which the comparison starts (default:
#                       half the host's cores); "any" starts whatever the load. Two cores shared
#                       with other work swing a single run 2-4x, so a ratio measured beside other
#                       work says more about that work than about Plumb or the broker.

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
# shellcheck source=settings.sh
source "$(dirname "${BASH_SOURCE[0]}")/settings.sh"
# The JVM settings of both sides of a Java tool's comparison (Kafka's, Pulsar's and RabbitMQ's
# own tools, and bin/benchmark through PLUMB_JAVA_OPTS): fixed, rather than bin/benchmark's
# share of the host's memory, so that the two sides run alike and a ratio does not move with the
# host's memory.
# shellcheck disable=SC2034 # used by the scripts that source this file
NATIVE_PAIRS_JAVA_OPTS="-Xms512m -Xmx2g -XX:+UseG1GC"

# The 1-minute load average.
native_pairs_load() {
  cut -d' ' -f1 /proc/loadavg
}

# Exits 1 with one line when the host is busier than PLUMB_VN_MAX_LOAD. $1: the script's name.
native_pairs_refuse_busy_host() {
  local name="$1" max="${PLUMB_VN_MAX_LOAD:-}" load
  if [[ "$max" == any ]]; then
    return 0
  fi
  if [[ -z "$max" ]]; then
    max="$(python3 -c 'import os; print(os.cpu_count() / 2)')"
  fi
  [[ "$max" =~ ^[0-9]+([.][0-9]+)?$ ]] ||
    { echo "$name: PLUMB_VN_MAX_LOAD=$max: allowed: a number (a load average) or any" >&2; exit 1; }
  load="$(native_pairs_load)"
  if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' "$load" "$max"; then
    echo "$name: the host's 1-minute load average is $load, above $max: other work would swing the" \
      "ratios; wait for it to end, or set PLUMB_VN_MAX_LOAD=any (or a higher number) to run anyway" >&2
    exit 1
  fi
}

# Prints "NAME: MESSAGE" (NAME as native_pairs_check was given it) and exits 1.
die() {
  echo "$native_pairs_name: $*" >&2
  exit 1
}

# What every script checks before it starts anything: a busy host (native_pairs_refuse_busy_host),
# then bin/benchmark, the driver module's jar and python3. $1: the script's name (die's prefix);
# $2: the driver module (driver-kafka); $3: what python3 reads (default: the result JSON).
native_pairs_check() {
  native_pairs_name="$1"
  native_pairs_refuse_busy_host "$1"
  [[ -x "$REPO/bin/benchmark" ]] || die "bin/benchmark not found"
  ls "$REPO/$2/target/$2-"*.jar >/dev/null 2>&1 ||
    die "$2 is not built: run 'mvn -q package -DskipTests' in $REPO first"
  command -v python3 >/dev/null || die "python3 is needed to read ${3:-the result JSON}"
}

# What every script does first, for broker $1 (kafka): native_pairs_check as kafka-vs-native of
# driver-kafka ($3: what python3 reads), then the settings every script reads the same way, from
# its environment variables' prefix $2 (KVN for PLUMB_KVN_*):
#   PAIRS  pairs of runs: PLUMB_<prefix>_PAIRS, default 5
#   OUT    where each run's output is kept: PLUMB_<prefix>_OUT, default
#          REPO/results/kafka-vs-native-<time> (a script that keeps no output ignores it)
#   DRIVER_FILE, WORKLOAD  Plumb's side: REPO/driver-kafka/kafka.yaml, REPO/workloads/kafka-vs-native.yaml
# shellcheck disable=SC2034 # PAIRS, OUT, DRIVER_FILE and WORKLOAD are read by the script that sources this file.
native_pairs_begin() {
  local name="$1-vs-native" pairs="PLUMB_$2_PAIRS" out="PLUMB_$2_OUT"
  native_pairs_check "$name" "driver-$1" "${3:-}"
  PAIRS="${!pairs:-5}"
  OUT="${!out:-$REPO/results/$name-$(date +%Y%m%d-%H%M%S)}"
  DRIVER_FILE="$REPO/driver-$1/$1.yaml"
  WORKLOAD="$REPO/workloads/$name.yaml"
}

# Starts the local broker (deploy/local/$1.sh) unless it runs already; native_pairs_started is 1
# when this script started it, and native_pairs_stop_broker then stops it again.
native_pairs_start_broker() {
  native_pairs_broker="$1"
  native_pairs_started=0
  if ! "$REPO/deploy/local/$1.sh" status >/dev/null 2>&1; then
    "$REPO/deploy/local/$1.sh" start
    native_pairs_started=1
  fi
}

native_pairs_stop_broker() {
  if ((${native_pairs_started:-0})); then
    "$REPO/deploy/local/$native_pairs_broker.sh" stop || true
  fi
}

# Plumb's run of pair $1: bin/benchmark with DRIVER_FILE, the options after $2, and WORKLOAD; the
# result goes to $2/plumb-$1.json and the console to $2/plumb-$1.out, whose end is shown if it fails.
native_pairs_benchmark() {
  local i="$1" dir="$2"
  shift 2
  "$REPO/bin/benchmark" --drivers "$DRIVER_FILE" "$@" \
    -o "$dir/plumb-$i.json" "$WORKLOAD" >"$dir/plumb-$i.out" 2>&1 ||
    { tail -n 30 "$dir/plumb-$i.out" >&2; die "bin/benchmark failed (pair $i)"; }
}

# The rate (msg/s) at which the broker acknowledged Plumb's sends in the result file $1, over its
# measured periods (acknowledgeRate): the native tools count a message once it succeeded, where
# publishRateMsgPerSec counts every send, failed ones included (docs/reference/results.md). The
# comparison stops (die's one line) when Plumb published 90% or more of its target: the
# workload's producerRate, not the broker, then set the rate, and the ratio would understate
# Plumb. (Kafka's did, at 400,000 msg/s, once the local broker took up to 520,000.)
native_pairs_publish_rate() {
  python3 - "$1" "${native_pairs_name:-native-pairs}" "${WORKLOAD:-the workload}" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
throughput = result["throughput"]
rate, target = throughput["publishRateMsgPerSec"], throughput.get("targetRateMsgPerSec")
if target and rate >= 0.9 * target:
    sys.exit(f"{sys.argv[2]}: Plumb published {rate:,.0f} msg/s, {rate / target:.0%} of its target of "
             f"{target:,.0f}: the target, not the broker, set its rate; raise producerRate in {sys.argv[3]}")
seconds = result["periodSeconds"]
print(sum(r * s for r, s in zip(result["acknowledgeRate"], seconds)) / sum(seconds))
PY
}

# A print_pair for a native run that prints "<rate after warm-up> <rate over the whole run>":
#   pair 2: native     319513 msg/s (whole run     225792)   plumb     223750 msg/s   plumb/native 0.700
native_pairs_line_with_whole() {
  local native_steady native_whole
  read -r native_steady native_whole <<<"$3"
  printf 'pair %d: native %10.0f msg/s (whole run %10.0f)   plumb %10.0f msg/s   plumb/native %s' \
    "$1" "$native_steady" "$native_whole" "${4%% *}" "$2"
}

# Runs $1 pairs, alternating which side goes first, and prints each pair with the load average
# after it, then the median ratio Plumb/native and the interval bin/benchmark --repeat would give.
# $2: bin/benchmark, which computes the interval.
native_pairs_run() {
  local pairs="$1" benchmark="$2" i native plumb ratio
  local ratios=()
  echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
  for ((i = 1; i <= pairs; i++)); do
    if declare -F before_pair >/dev/null; then
      before_pair "$i"
    fi
    # Alternate which side goes first, so a drift on the shared host does not favour one side.
    if ((i % 2)); then
      native="$(native_run "$i")"
      plumb="$(plumb_run "$i")"
    else
      plumb="$(plumb_run "$i")"
      native="$(native_run "$i")"
    fi
    ratio="$(python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.3f}")' \
      "${plumb%% *}" "${native%% *}")"
    ratios+=("$ratio")
    echo "$(print_pair "$i" "$ratio" "$native" "$plumb")   (load average $(native_pairs_load))"
  done
  echo
  echo "median plumb/native: $(python3 -c 'import statistics, sys
print(f"{statistics.median(map(float, sys.argv[1:])):.3f}")' "${ratios[@]}")"
  # The same statistics as bin/benchmark --repeat (Hodges-Lehmann, exact signed-rank interval).
  echo "plumb/native over $pairs pairs: $(PLUMB_MAIN_CLASS=io.plumb.repeat.IntervalMain "$benchmark" "${ratios[@]}")"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}
