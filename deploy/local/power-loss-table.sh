#!/usr/bin/env bash
# What fsync costs beside what it buys, broker by broker: each fsync variant on a 3-node cluster
# whose data directories sit on the power-loss layer (deploy/power-loss), one run after the other
# on this host.
#
#   deploy/local/power-loss-table.sh [BROKER...]     (default: pulsar rabbitmq kafka nats redis)
#
# For each variant (a driver file, and the cluster option that goes with it):
#   1. start a clean 3-node cluster with --power-loss-layer and the variant's option;
#   2. cost: publish and end-to-end latency at 2,000 msg/s
#      (workloads/replication-cost-1kb-fixed.yaml, 30 s after 30 s of warm-up), and the stable
#      peak (workloads/replication-cost-1kb.yaml, probes of PROBE_SECONDS, which the search
#      lengthens where the latency swings too far to tell a trend in that time);
#   3. what it buys: REPEATS runs of workloads/power-loss-1kb-2k.yaml under one plan
#      with two faults: the node that holds the topic's data loses power at 3 s (back 5 s later),
#      then every node at once at 45 s (back 10 s later). The gap lets the first node rejoin
#      before the second fault (a Pulsar bookie waits out its old ZooKeeper session, up to 30 s).
#      Each fault's line gives the acknowledged loss charged to it (what the final read did not
#      find either) and the topic's unavailability. A run whose fault failed, one cut short and one
#      whose final read did not run are left out of the figures and counted apart.
# Then, once per broker, the layer's own cost: the first variant's fixed-rate run again on a clean
# cluster without the layer.
# Between measurements every layer is synced (as a kernel's writeback would, given time), so one
# measurement's unsynced gigabytes neither fill the layer's memory nor land in the next one.
# Results go to results/power-loss-table-<time>/; the table is printed at the end, and
#   deploy/local/power-loss-table.sh --table DIR    prints it again from DIR.
#
# Environment:
#   REPEATS        loss runs per variant (default 3)
#   VARIANTS       a regular expression on "broker/file/option": only the variants it matches
#   MEASURE        which of "fixed loss peak bare" (default all four; bare: the fixed-rate run
#                  without the layer)
#   PROBE_SECONDS  the peak search's probes to start with (default 5)
#   OUT            a results directory to add to, instead of a new one
# Builds nothing: run `mvn -q package -DskipTests` and deploy/power-loss/build.sh first. Needs root
# and FUSE. Every node shares this host's two cores and disk: the costs are relative, the losses
# the configurations'.
set -euo pipefail
shopt -s extglob
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
PROBE_SECONDS="${PROBE_SECONDS:-5}"
REPEATS="${REPEATS:-3}"
VARIANTS="${VARIANTS:-.}"
MEASURE="${MEASURE:-fixed loss peak bare}"
FIXED_WORKLOAD=workloads/replication-cost-1kb-fixed.yaml
PEAK_WORKLOAD=workloads/replication-cost-1kb.yaml
LOSS_WORKLOAD=workloads/power-loss-1kb-2k.yaml
STATE_DIR="${PLUMB_STATE_DIR:-$root/.plumb}"

# broker|driver file|cluster option|the plan's target for one node|driver settings (--driver-set)
# The durable variant of each broker comes first: its fixed-rate run is repeated without the layer.
# The plan's single-node target is what holds the topic's data: Redis's primary, a bookie of the
# topic's ledger for Pulsar (its broker keeps no data), the node of RabbitMQ's classic queue
# (rabbitmq-durable.yaml connects to node 1 only, so its queue lives there). Redis streams run
# without their cap (maxLen=0), so that the final read finds every entry the broker still has.
VARIANT_LIST=(
  "pulsar|pulsar-replicated.yaml|--journal-sync true|bookie|client.expectJournalSync=true"
  "pulsar|pulsar-replicated.yaml|--journal-sync false|bookie|client.expectJournalSync=false"
  "rabbitmq|rabbitmq-quorum-replicated.yaml||leader|"
  "rabbitmq|rabbitmq-durable.yaml||node 1|"
  "rabbitmq|rabbitmq-classic-weak.yaml||leader|"
  "kafka|kafka-replicated-sync.yaml||leader|"
  "kafka|kafka-replicated.yaml||leader|"
  "nats|nats-jetstream-replicated-sync.yaml|--sync always|leader|"
  "nats|nats-jetstream-replicated.yaml|--sync default|leader|"
  "redis|redis-replicated-aof-always.yaml||primary|maxLen=0"
  "redis|redis-replicated-aof-everysec.yaml||primary|maxLen=0"
  "redis|redis-replicated-aof-no.yaml||primary|maxLen=0"
)

table() {
  PYTHONPATH=deploy/local/lib python3 - "$1" <<'PY'
import glob, os, re, sys
from results import load, stable_peak
out = sys.argv[1]
def rng(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    lo, hi = min(values), max(values)
    return fmt(lo) if lo == hi else f"{fmt(lo)} to {fmt(hi)}"
# What each broker reads back about when it syncs, as the result's brokerFacts name it.
SYNC_FACTS = {
    "kafka": ["topic.flush.messages", "topic.flush.ms"],
    "nats": ["nats.server.sync"],
    "redis": ["redis.appendfsync", "appendfsync", "redis.waitReplicas"],
    "rabbitmq": ["rabbitmq.queueType", "rabbitmq.durableQueues", "rabbitmq.messagePersistence"],
    "pulsar": ["pulsar.bookies.journalSyncData"],
}
# Brokers whose final read reads the topic from its first message, all of it still retained:
# Kafka's log (7 days by default), JetStream's stream (limits retention). Pulsar here deletes what
# its subscription consumed (retention 0), Redis caps the stream (maxLen), and a RabbitMQ queue
# hands each message over once: their reads see what is left, not what was acknowledged. A Redis
# stream run with --driver-set maxLen=0 keeps every entry, and counts.
LOG_KEPT = {"kafka", "nats"}
def gone_from_log(broker, r):
    """Acknowledged messages the broker's log no longer held after the faults: those the final read
    did not find, by sequence number (finalRead.acknowledgedNotInRead). Results written before that
    figure give only the run's acknowledged count less everything the read handed over, a lower
    bound that can hide a loss: duplicates in the log, the probes and sends that failed yet were
    written all count there as acknowledged messages kept."""
    fr = r.get("finalRead", {})
    uncapped = broker == "redis" and r.get("brokerFacts", {}).get("redis.streams.maxLen") == "0"
    if (broker not in LOG_KEPT and not uncapped) or not fr.get("ran"):
        return None
    if "acknowledgedNotInRead" in fr:
        return fr["acknowledgedNotInRead"]
    return max(0, r["counters"]["acknowledged"] - fr["messagesRead"])
def unavailable_from_goodput(fault, until):
    """The longest stretch of 100 ms slices without an acknowledgement that begins at the fault
    or after it, and before `until` (the next fault): the one-node fault's own outage. Its
    headline figure in results written before 2026-11-27 14:30 can be the next fault's outage
    instead (Kafka: 47.5 s for a leader whose own outage was 9.5 s): that outage's window opens
    with the sends in flight just before the next fault, and it was charged to both."""
    g = (fault.get("unavailability") or {}).get("goodput") or {}
    rates, start, slice_ = g.get("acknowledgedPerSecond") or [], g.get("fromSeconds", 0), g.get("sliceSeconds", 0.1)
    if not rates:
        return None  # no goodput recorded (older results): unknown, not "never without one"
    best, run_start, length = 0.0, None, 0
    for i, rate in enumerate(rates + [1]):
        t = start + i * slice_
        if rate == 0 and run_start is None:
            run_start, length = t, 0
        if rate == 0:
            length += 1
        elif run_start is not None:
            if fault["appliedSeconds"] - slice_ <= run_start < until - 0.5:
                best = max(best, length * slice_)
            run_start = None
    return best
def unavailable(fault):
    u = fault.get("unavailability") or {}
    worst = [fault.get("unavailableSeconds"), u.get("worstPartitionSeconds"), u.get("worstProducerSeconds")]
    return max([w for w in worst if w is not None], default=0.0)
def sync_of(broker, facts):
    """The sync settings a result read back, short names to values ("journalSyncData": "true")."""
    return {k.split(".")[-1]: facts[k].split(" (")[0] for k in SYNC_FACTS.get(broker, []) if k in facts}
def left_out(r):
    """Why a loss run measured something other than the plan, or None when it counts. A fault that
    could not be applied or undone (a node that did not start again): some other run. A run that
    did not complete (complete false: stopped, or failed after both faults, its drain included):
    its outage stops where it stopped, and without a drain or a read its missing messages count as
    in flight, not lost (0). A final read
    that did not run or failed: loss judged by the drain, which the columns do not mean."""
    if any(f.get("error") for f in r["faults"]):
        return "a fault failed or was not undone"
    if not r.get("complete", True):
        return "incomplete"
    if not r.get("finalRead", {}).get("ran"):
        return "no final read"
    return None
def still_out(losses):
    """A note for the every-node column when a run's outage had not ended by the run's end: its
    figure is then the time to the end, at least the outage, not the restart it reads as."""
    open_ = sum(1 for r in losses if r["faults"][1].get("availableAgain") is False)
    return f" (still out at the end: {open_} of {len(losses)})" if open_ else ""
variants = [line.rstrip("\n").split("|") for line in open(os.path.join(out, "variants")) if line.strip()]
print("\n| broker | driver file | cluster option | read back from the broker | stable peak on the layer (msg/s) | publish p50 / p99 at 2,000 msg/s on the layer (ms) | the same without the layer (ms) | acknowledged then lost: one node loses power | every node loses power | unavailable (s): one node | every node | acknowledged, then not in the log after both (at least) | runs |")
print("|---|---|---|---|---:|---|---|---|---|---|---|---|---:|")
for name, broker, file, option in variants:
    fixed, peak = load(f"{out}/{name}-fixed.json"), load(f"{out}/{name}-peak.json")
    bare = load(f"{out}/{name}-fixed-no-layer.json")
    # Each loss run leaves its console ($name-loss-N.log) whatever happens; one without a whole
    # result file, or with another plan's faults, is counted apart rather than dropped unsaid.
    consoles = glob.glob(f"{out}/{name}-loss-*.log")
    written = {p[:-len(".json")]: load(p) for p in glob.glob(f"{out}/{name}-loss-*.json")}
    unread = sum(1 for c in consoles if not written.get(c[:-len(".log")]))
    runs = [r for _, r in sorted(written.items()) if r and len(r.get("faults", [])) == 2]
    unread += sum(1 for r in written.values() if r and len(r.get("faults", [])) != 2)
    # The row's sync setting as the first result that read one back gives it; a loss run that read
    # back another measured another configuration than the row names, and is left out.
    facts = next((r.get("brokerFacts") for r in [fixed, peak] + runs
                  if r and sync_of(broker, r.get("brokerFacts") or {})), {})
    row_sync = sync_of(broker, facts)
    def why_left_out(r):
        other = sync_of(broker, r.get("brokerFacts") or {})
        if other and other != row_sync:
            return "read back " + ", ".join(f"{k}={v}" for k, v in other.items())
        return left_out(r)
    losses = [r for r in runs if why_left_out(r) is None]
    failed = [why_left_out(r) for r in runs if why_left_out(r) is not None]
    failed += ["no result with both faults (see its console)"] * unread
    sync = ", ".join(f"{k}={v}" for k, v in row_sync.items())
    # A fixed-rate run that did not complete (stopped, or failed on the way) is marked.
    lat = lambda r: (f"{r['latency']['publish']['p50']:.2f} / {r['latency']['publish']['p99']:.1f}"
                     + ("" if r.get("complete", True) else " (incomplete)") if r else "—")
    one = [r["faults"][0]["acknowledgedLost"] for r in losses]
    every = [r["faults"][1]["acknowledgedLost"] for r in losses]
    uncapped = name.endswith("-uncapped") or (broker == "redis" and facts.get("redis.streams.maxLen") == "0")
    shown_option = " ".join(x for x in [option, "`maxLen=0`" if uncapped else ""] if x) or "—"
    n = lambda v: f"{v:,}"
    s = lambda v: f"{v:.1f}"
    note = (" (and " + "; ".join(f"{failed.count(w)} left out: {w}" for w in sorted(set(failed))) + ")"
            if failed else "")
    print(f"| {broker} | `{file}` | {shown_option} | {sync} | {stable_peak(peak)} | {lat(fixed)} | {lat(bare)} | {rng(one, n)} | {rng(every, n)} | {rng([unavailable_from_goodput(r['faults'][0], r['faults'][1]['appliedSeconds']) for r in losses], s)} | {rng([unavailable(r['faults'][1]) for r in losses], s)}{still_out(losses)} | {rng([gone_from_log(broker, r) for r in losses], n)} | {len(losses)}{note} |")
print("(loss and unavailability: the range over the runs; one node: the node holding the topic's data; unavailable: the longest a partition or the producer went without an acknowledgement; still out at the end: until the end of the run, the outage itself longer)")
PY
  echo "(results and consoles in $1)"
}

if [ "${1:-}" = "--table" ]; then
  table "${2:?usage: $0 --table DIR}"
  exit 0
fi

# shellcheck source=lib/one-broker.sh
source deploy/local/lib/one-broker.sh

brokers=("$@")
[ ${#brokers[@]} -gt 0 ] || brokers=(pulsar rabbitmq kafka nats redis)

out="${OUT:-results/power-loss-table-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
touch "$out/variants"

# Starts $1 from a clean state: 3 nodes, then the options that follow.
fresh() {
  local broker="$1"
  shift
  before_start "$broker"
  deploy/local/"$broker".sh start --nodes 3 "$@" >>"$out/$broker-start.log" 2>&1
}

# Makes every layer of $1's nodes durable.
sync_layers() {
  local env control tool
  for env in "$STATE_DIR/$1"/nodes/*/node.env; do
    control="$(sed -n 's/^POWER_LOSS_CONTROL=//p' "$env")"
    tool="$(sed -n 's/^POWER_LOSS_TOOL=//p' "$env")"
    [ -n "$control" ] && [ -S "$control" ] || continue
    "$tool" sync --control "$control" >/dev/null
  done
}

for broker in "${brokers[@]}"; do
  first=""
  for variant in "${VARIANT_LIST[@]}"; do
    IFS='|' read -r b file option target sets <<<"$variant"
    [ "$b" = "$broker" ] || continue
    [[ "$b/$file/$option" =~ $VARIANTS ]] || continue
    name="$b-${file%.yaml}$(sed 's/--[a-z-]* /-/; s/ //g' <<<"$option")"
    grep -q "^$name|" "$out/variants" || echo "$name|$b|$file|$option" >>"$out/variants"
    setting=()
    [ -z "$sets" ] || setting=(--driver-set "$sets")
    plan="$out/$name-plan.yaml"
    printf 'faults:\n  - at: 3s\n    action: power-loss\n    target: %s\n    duration: 5s\n  - at: 45s\n    action: power-loss\n    target: all\n    duration: 10s\n' \
      "$target" >"$plan"
    [ -n "$first" ] || first="$name|$file|$option|$sets"
    [[ " $MEASURE " == *" "@(fixed|loss|peak)" "* ]] || continue
    echo "== $name: 3 nodes on the power-loss layer ${option}"
    # shellcheck disable=SC2086 # the option is two words or none
    fresh "$b" --power-loss-layer $option
    if [[ " $MEASURE " == *" fixed "* ]]; then
      measure "$name-fixed" -d "driver-$b/$file" "${setting[@]}" "$FIXED_WORKLOAD"
      sync_layers "$b"
    fi
    for ((run = 1; run <= REPEATS; run++)); do
      [[ " $MEASURE " == *" loss "* ]] || break
      measure "$name-loss-$run" -d "driver-$b/$file" "${setting[@]}" --faults "$plan" \
        "$LOSS_WORKLOAD"
      sync_layers "$b"
    done
    # The search last: it writes gigabytes, which the kernel would write back during the next run.
    if [[ " $MEASURE " == *" peak "* ]]; then
      # Without the stream cap a search would keep gigabytes in every Redis node's memory; the
      # final read that needs the whole stream runs after the loss runs only.
      peak_setting=()
      [ -z "${sets/maxLen=0/}" ] || peak_setting=(--driver-set "${sets/maxLen=0/}")
      measure "$name-peak" -d "driver-$b/$file" "${peak_setting[@]}" --probe-seconds "$PROBE_SECONDS" "$PEAK_WORKLOAD"
    fi
  done
  if [ -n "$first" ] && [[ " $MEASURE " == *" bare "* ]]; then
    IFS='|' read -r name file option sets <<<"$first"
    setting=()
    [ -z "$sets" ] || setting=(--driver-set "$sets")
    echo "== $name: 3 nodes without the layer ${option}"
    # shellcheck disable=SC2086
    fresh "$broker" $option
    measure "$name-fixed-no-layer" -d "driver-$broker/$file" "${setting[@]}" "$FIXED_WORKLOAD"
  fi
  stop_running "$broker"
done

table "$out"
