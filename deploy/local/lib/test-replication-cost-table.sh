#!/usr/bin/env bash
# Tests the table of deploy/local/replication-cost.sh (--table DIR) without a broker: result files,
# cut down to the fields the table reads, stand in for a run's folder. Checks each column against
# the result it comes from, and that a missing half reads n/a. Seconds; run by bin/test-all.
set -euo pipefail

# shellcheck source=testing.sh
source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" "replication-cost table"
REPLICATION_COST="$HERE/../replication-cost.sh"

# Kafka's replicated file: a peak search and a fixed-rate run whose generator fell behind.
cat >"$WORK/kafka-kafka-replicated-peak.json" <<'JSON'
{"search": {"stablePeakMsgPerSec": 19027.4}, "brokerFacts": {"nodes": "3", "replicas": "3"}}
JSON
cat >"$WORK/kafka-kafka-replicated-fixed.json" <<'JSON'
{"complete": true, "generatorBound": true, "counters": {"lost": 1234},
 "brokerFacts": {"nodes": "3", "replicas": "3"},
 "latency": {"publish": {"p50": 123.671, "p99": 616.6, "p99.9": 892.3},
             "endToEnd": {"p50": 131.6, "p99": 640.7, "p99.9": 890.8},
             "sendDelay": {"p50": 1.0, "p99": 133.036, "p99.9": 200.0}}}
JSON
# Redis on one node: the fixed-rate half is missing (the run was stopped).
cat >"$WORK/redis-redis-peak.json" <<'JSON'
{"search": {"stablePeakMsgPerSec": 90510}, "brokerFacts": {"nodes": "1", "replicas": "1"}}
JSON

"$REPLICATION_COST" --table "$WORK" >"$WORK/table" || fail "--table exited non-zero: $(cat "$WORK/table")"
grep -qxF '| kafka | `kafka-replicated.yaml` | 3 | 3 | 19,027 | 123.67 / 616.60 / 892.30 | 131.60 / 640.70 / 890.80 | 133.04 | 1,234 | complete, generator-bound |' "$WORK/table" ||
  fail "the kafka row: $(grep kafka "$WORK/table")"
grep -qxF '| redis | `redis.yaml` | 1 | 1 | 90,510 | n/a | n/a | n/a | n/a | no result |' "$WORK/table" ||
  fail "the redis row: $(grep redis "$WORK/table")"
grep -qF '| send delay p99 (ms) | lost | verdict |' "$WORK/table" || fail "the heading: $(grep broker "$WORK/table")"
echo "replication-cost table: ok: each column from its result, n/a where a half is missing"
