#!/usr/bin/env bash
# Tests the table of deploy/local/comparisons.sh (--table DIR) without a broker: a repeat summary,
# cut down to the fields the table reads, stands in for a comparison's runs. Checks that each cell
# is the estimate --repeat reports (and report.html shows) with its own interval. Seconds; run by
# bin/test-all.
set -euo pipefail

# shellcheck source=testing.sh
source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" comparisons
COMPARISONS="$HERE/../comparisons.sh"

# Three rounds of stable peaks 4,362, 8,354 and 9,827 msg/s: median 8,354, estimate (the
# Hodges-Lehmann centre of the logarithms) 7,396, interval the range at 75%. End-to-end p50 45.5,
# 82.9 and 229.9 ms: median 82.9, estimate 92.08. A second file has one round counted.
cat >"$WORK/repeat-summary-1.json" <<'JSON'
{"repeat": 3, "pairs": [
 {"driverFile": "driver-rabbitmq/rabbitmq-quorum-replicated.yaml", "runs": 3, "countedRuns": 3, "results": [],
  "metrics": {
   "stable peak": {"unit": "msg/s", "values": [4362, 8354, 9827], "runs": 3, "median": 8354, "min": 4362,
                   "max": 9827, "estimate": 7396.3, "interval": {"low": 4362, "high": 9827, "level": 0.75}},
   "end-to-end p50": {"unit": "ms", "values": [45.5, 82.9, 229.9], "runs": 3, "median": 82.9, "min": 45.5,
                      "max": 229.9, "estimate": 92.08, "interval": {"low": 45.5, "high": 229.9, "level": 0.75}},
   "end-to-end p99": {"unit": "ms", "notReported": "too few samples"}}},
 {"driverFile": "driver-rabbitmq/rabbitmq-stream-protocol-replicated.yaml", "runs": 3, "countedRuns": 1,
  "results": [{"leaveOutReason": "generator-bound"}],
  "metrics": {
   "stable peak": {"unit": "msg/s", "values": [316182], "runs": 1, "median": 316182, "min": 316182,
                   "max": 316182, "estimate": 316182, "interval": null}}}]}
JSON

"$COMPARISONS" --table "$WORK" >"$WORK/table" || fail "--table exited non-zero: $(cat "$WORK/table")"
grep -qxF '| `driver-rabbitmq/rabbitmq-quorum-replicated.yaml` |  | 3 of 3 | 7,396 (4,362 to 9,827, 75%) | 92.08 (45.50 to 229.90, 75%) | n/a |  |' "$WORK/table" ||
  fail "the quorum row: $(grep quorum "$WORK/table")"
grep -qxF '| `driver-rabbitmq/rabbitmq-stream-protocol-replicated.yaml` |  | 1 of 3 | 316,182 | n/a | n/a | generator-bound |' "$WORK/table" ||
  fail "the one-round row: $(grep stream-protocol "$WORK/table")"
echo "comparisons: ok: each cell the estimate --repeat reports, with its interval"
