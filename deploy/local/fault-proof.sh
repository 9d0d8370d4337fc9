#!/usr/bin/env bash
# What durability buys, broker by broker: each broker's durable replicated file and a weak one on a
# 3-node cluster, under a fault plan from faults/, one run after the other on this host.
#
#   deploy/local/fault-proof.sh [BROKER...]     (default: kafka pulsar rabbitmq nats redis)
#
# For each broker: start a clean 3-node cluster, run each (driver file, plan) pair below with
# workloads/faults-1kb-2k.yaml (2,000 msg/s of 1 KB to one partition, 10 s warm-up, 60 s measured),
# and stop the cluster. A plan undoes its faults and restarts killed nodes before the drain, so the
# pairs of one broker share the cluster. Results go to results/fault-proof-<time>/; the table of
# unavailability, recovery and acknowledged loss is printed at the end.
#
# Builds nothing: run `mvn -q package -DskipTests` first. Needs root for the partition and
# isolate faults (nftables). Every node shares this host's cores and disk: the times are this
# host's, the losses are the configurations'.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=lib/one-broker.sh
source deploy/local/lib/one-broker.sh
WORKLOAD=workloads/faults-1kb-2k.yaml
brokers=("$@")
[ ${#brokers[@]} -gt 0 ] || brokers=(kafka pulsar rabbitmq nats redis)

# Per broker, "driver file:plan[:workload]" entries: the durable file under the leader's death, then
# the weak file under the fault that shows what it gives up; the workload is $WORKLOAD unless named
# (faults-1kb-2k-2t4p: 2 topics of 4 partitions, where a leader's death stops only its partitions).
declare -A pairs=(
  [kafka]="kafka-replicated.yaml:kill-leader kafka-replicated.yaml:kill-leader:faults-1kb-2k-2t4p kafka-replicated.yaml:partition-leader kafka-replicated-weak.yaml:partition-leader"
  [pulsar]="pulsar-replicated.yaml:kill-bookie pulsar-replicated.yaml:kill-leader"
  [rabbitmq]="rabbitmq-quorum-replicated.yaml:kill-leader rabbitmq-classic-mirrored.yaml:kill-leader rabbitmq-classic-weak.yaml:kill-leader"
  [nats]="nats-jetstream-replicated.yaml:kill-leader nats-jetstream-weak.yaml:kill-leader"
  [redis]="redis-replicated.yaml:kill-primary redis-replicated-weak.yaml:partition-primary")

out="results/fault-proof-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

for broker in "${brokers[@]}"; do
  echo "== $broker: starting a clean 3-node cluster"
  before_start "$broker"
  deploy/local/"$broker".sh start --nodes 3 >"$out/$broker-start.log" 2>&1
  for pair in ${pairs[$broker]}; do
    IFS=: read -r file plan workload <<<"$pair"
    workload="${workload:+workloads/$workload.yaml}"
    workload="${workload:-$WORKLOAD}"
    name="$broker-${file%.yaml}-$plan$([ "$workload" = "$WORKLOAD" ] || basename "$workload" .yaml | sed 's/^faults-1kb-2k//')"
    measure "$name" -d "driver-$broker/$file" --faults "faults/$plan.yaml" "$workload"
  done
  stop_running "$broker"
done

python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
print("\n| broker | driver file | workload | fault | nodes hit | unavailable, worst partition or producer (s) | partitions affected | recovered after (s) | acknowledged then lost (fault / before it / run) | final read | publish failures | duplicated | sent | complete |")
print("|---|---|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|")
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    r = json.load(open(path))
    name = os.path.basename(path)[:-5]
    broker = name.split("-", 1)[0]
    file = r["driverConfig"]["file"].split("/")[-1]
    workload = r["workloadConfig"].get("name", "")
    c = r["counters"]
    before = r.get("beforeFirstFault", {}).get("acknowledgedLost", 0)
    fr = r.get("finalRead", {})
    read = (f"{fr.get('seconds', 0):.1f} s, {fr.get('messagesRead', 0):,} read" if fr.get("ran")
            else "not run")
    for f in r.get("faults", []):
        hit = ",".join(f["nodes"]) + (f" ({f['leaderMeaning']})" if f.get("leaderMeaning") else "")
        u = f.get("unavailability") or {}
        if f["unavailableSeconds"] is None:
            unavailable = "never"
        else:
            by_producer = (u.get("worstProducerSeconds") or 0) > (u.get("worstPartitionSeconds") or 0)
            where = f"producer {u.get('worstProducer')}" if by_producer else u.get("worstPartition", "?")
            unavailable = f"{f['unavailableSeconds']:.2f} ({where})" + ("" if f["availableAgain"] else " (not again)")
        affected = u.get("partitionsAffected", "")
        recovered = "no" if f["recoverySeconds"] is None else f"{f['recoverySeconds']:.1f}"
        error = f" — {f['error']}" if f.get("error") else ""
        lost = f"{f['acknowledgedLost']:,} / {before:,} / {c['lost']:,}"
        print(f"| {broker} | {file} | {workload} | {f['action']} {f['target']} | {hit} | {unavailable} | {affected} | {recovered} | {lost} | {read} | {f['publishFailures']:,} | {f['duplicates']:,} | {c['sent']:,} | {r['complete']}{error} |")
PY
echo "(results and consoles in $out)"
