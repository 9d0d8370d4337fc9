#!/usr/bin/env bash
# Publish and end-to-end latency of every driver file of one broker at a fixed rate, one after the
# other on the same local broker: what each durability or tuning variant costs at the same load.
#
#   deploy/local/fixed-rate-latency.sh BROKER [WORKLOAD]
#
# BROKER is kafka, pulsar, rabbitmq, nats or redis; WORKLOAD defaults to workloads/quick-1kb-10k.yaml
# (10,000 msg/s of 1 KB, 16 partitions, 30 s after 10 s of warm-up). Builds nothing: run
# `mvn -q package -DskipTests` first. Starts the broker if it is not running, and then stops it at
# the end. Results go to results/fixed-rate-<broker>-<time>/; a table is printed at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
broker="${1:?usage: $0 kafka|pulsar|rabbitmq|nats|redis [WORKLOAD]}"
workload="${2:-workloads/quick-1kb-10k.yaml}"
[ -x "deploy/local/$broker.sh" ] || { echo "error: no deploy/local/$broker.sh" >&2; exit 2; }
out="results/fixed-rate-$broker-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

if ! deploy/local/"$broker".sh status >/dev/null 2>&1; then
  deploy/local/"$broker".sh start
  trap 'deploy/local/'"$broker"'.sh stop' EXIT
fi

for driver in driver-"$broker"/*.yaml; do
  name="$(basename "$driver" .yaml)"
  # Everything on this host shares its cores: keep the load average beside each figure.
  cut -d' ' -f1-3 /proc/loadavg >"$out/$name.load-before"
  echo "== $driver (load average $(cat "$out/$name.load-before"))"
  bin/benchmark -d "$driver" -o "$out/$name.json" "$workload" >"$out/$name.log" 2>&1 || echo "   run failed: see $out/$name.log"
  cut -d' ' -f1-3 /proc/loadavg >"$out/$name.load-after"
done

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
print(f"\n{'driver file':34} {'target':>8} {'published':>10} {'consumed':>9} {'backlog':>8} {'pub p50':>8} {'pub p99':>8} {'e2e p50':>8} {'e2e p99':>8} {'lost':>5} {'dup':>5} {'load 1m':>8}  verdict")
for name in sorted(os.listdir(out)):
    if not name.endswith(".json"):
        continue
    r = json.load(open(os.path.join(out, name)))
    t, l, c = r["throughput"], r["latency"], r["counters"]
    verdict = "complete" if r["complete"] else "INCOMPLETE"
    if r["generatorBound"]:
        verdict += ", GENERATOR-BOUND"
    # Messages sent but not yet received at the end of the measured phase: a backlog that grows
    # from period to period means the consumers did not keep up.
    backlog = int(r["backlog"][-1]) if r.get("backlog") else 0
    load = [open(os.path.join(out, name[:-5] + "." + when)).read().split()[0]
            for when in ("load-before", "load-after")]
    print(f"{name[:-5]:34} {t['targetRateMsgPerSec']:8,.0f} {t['publishRateMsgPerSec']:10,.0f} {t['consumeRateMsgPerSec']:9,.0f} {backlog:8,d} "
          f"{l['publish']['p50']:8.2f} {l['publish']['p99']:8.2f} {l['endToEnd']['p50']:8.2f} {l['endToEnd']['p99']:8.2f} "
          f"{c['lost']:5d} {c['duplicated']:5d} {'-'.join(load):>8}  {verdict}")
print("(latencies in ms; publish and end-to-end measured from the intended send time;")
print(" backlog: sent but not yet received when measuring ended;")
print(" load 1m: the host's 1-minute load average before-after the run)")
PY
