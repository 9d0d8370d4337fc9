#!/usr/bin/env bash
# Tests the table of deploy/local/power-loss-table.sh (--table DIR) without a broker: recorded
# result files, cut down to the fields the table reads, stand in for a variant's runs. Checks the
# column "acknowledged, then not in the log after both". Seconds; run by bin/test-all.
set -euo pipefail

# shellcheck source=testing.sh
source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" power-loss-table
TABLE="$HERE/../power-loss-table.sh"

# One loss run's result: $1 the file, $2 acknowledged, $3 messages the final read handed over, $4
# the finalRead fields beyond those (JSON, from a comma), $5 the run's own fields beyond the faults
# (JSON, from a comma). Two faults at 3 s and 45 s, each lost nothing, the one-node outage 0.5 s.
loss_run() {
  cat >"$1" <<JSON
{"counters": {"acknowledged": $2, "lost": 0},
 "finalRead": {"ran": true, "messagesRead": $3 $4},
 "brokerFacts": {"topic.flush.messages": "9223372036854775807", "topic.flush.ms": "9223372036854775807"},
 "faults": [
  {"appliedSeconds": 3.0, "acknowledgedLost": 0, "unavailableSeconds": 0.5,
   "unavailability": {"worstPartitionSeconds": 0.5, "worstProducerSeconds": 0.5,
     "goodput": {"fromSeconds": 0.0, "sliceSeconds": 0.1,
                 "acknowledgedPerSecond": [2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000,
                                           2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000,
                                           2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000,
                                           0, 0, 0, 0, 0, 2000, 2000]}}},
  {"appliedSeconds": 45.0, "acknowledgedLost": 0, "unavailableSeconds": 30.0,
   "unavailability": {"worstPartitionSeconds": 30.0, "worstProducerSeconds": 30.0}}]
 ${5:-}}
JSON
}

# The row of variant $1 in the table of directory $2, its cells one a line.
row() {
  "$TABLE" --table "$2" | grep "^| kafka | \`$1.yaml\`" | tr '|' '\n' | sed 's/^ *//; s/ *$//' |
    sed 1d
}

# Cell $2 (from 1) of row $1.
cell() {
  sed -n "${2}p" <<<"$1"
}

# Cell $2 of row $1 must read $3: else the test fails with $4 (what the column holds), what the
# cell read and what it should have.
expect_cell() {
  local got
  got="$(cell "$1" "$2")"
  [ "$got" = "$3" ] || fail "$4: '$got', not '$3'"
}

# A fresh results directory, $WORK/$1, left in out: it lists the one variant kafka/$2.yaml
# (default kafka-replicated.yaml) as a run of the table's script lists it.
results_dir() {
  local file="${2:-kafka-replicated}"
  out="$WORK/$1"
  mkdir -p "$out"
  echo "kafka-$file|kafka|$file.yaml|" >"$out/variants"
}

# The log's column counts acknowledged messages the read did not find, by sequence number: 10,000
# duplicates in the log (a producer's retries) once read as 10,000 acknowledged messages kept, and
# the column said 90,000 of a loss of 100,000.
results_dir by-sequence
loss_run "$out/kafka-kafka-replicated-loss-1.json" 230000 140000 ', "acknowledgedNotInRead": 100000'
loss_run "$out/kafka-kafka-replicated-loss-2.json" 230000 130000 ', "acknowledgedNotInRead": 100200'
r="$(row kafka-replicated "$out")"
expect_cell "$r" 12 "100,000 to 100,200" "not in the log"
expect_cell "$r" 13 "2" "runs"
echo "power-loss-table: ok: not in the log, by sequence number"

# A result written before acknowledgedNotInRead: the acknowledged count less what was read.
results_dir older
loss_run "$out/kafka-kafka-replicated-loss-1.json" 230000 140000 ''
r="$(row kafka-replicated "$out")"
expect_cell "$r" 12 "90,000" "older result, not in the log"
expect_cell "$r" 10 "0.5" "older result, one node unavailable"
expect_cell "$r" 11 "30.0" "older result, every node unavailable"
echo "power-loss-table: ok: an older result's lower bound"

# Runs that measured something other than the plan are left out of every column and counted apart:
# one cut short at 50 s, during the every-node outage (its outage 5 s, its missing messages in
# flight, so 0 lost), and one whose final read failed (its 40 lost are the drain's guess). Both
# once entered the ranges: every node lost "0 to 40", was unavailable "5.0 to 30.0".
results_dir left-out
loss_run "$out/kafka-kafka-replicated-loss-1.json" 230000 140000 ', "acknowledgedNotInRead": 100000' \
  ', "complete": true'
loss_run "$out/kafka-kafka-replicated-loss-2.json" 100000 90000 ', "acknowledgedNotInRead": 10000' \
  ', "complete": false, "incompleteReason": "interrupted (SIGINT/SIGTERM) before the end of the run"'
sed -i 's/"unavailableSeconds": 30.0/"unavailableSeconds": 5.0/; s/"worstPartitionSeconds": 30.0, "worstProducerSeconds": 30.0/"worstPartitionSeconds": 5.0, "worstProducerSeconds": 5.0/' \
  "$out/kafka-kafka-replicated-loss-2.json"
loss_run "$out/kafka-kafka-replicated-loss-3.json" 230000 0 ', "whyNot": "failed after 300.0 s"' \
  ', "complete": true'
sed -i 's/"ran": true/"ran": false/; 0,/"acknowledgedLost": 0/! s/"acknowledgedLost": 0/"acknowledgedLost": 40/' \
  "$out/kafka-kafka-replicated-loss-3.json"
grep -q '"acknowledgedLost": 40' "$out/kafka-kafka-replicated-loss-3.json" || fail "the recorded drain loss"
r="$(row kafka-replicated "$out")"
expect_cell "$r" 9 "0" "left out, every node lost"
expect_cell "$r" 11 "30.0" "left out, every node unavailable"
expect_cell "$r" 12 "100,000" "left out, not in the log"
expect_cell "$r" 13 "1 (and 1 left out: incomplete; 1 left out: no final read)" "left out, runs"
echo "power-loss-table: ok: runs cut short or without a final read are left out"

# A loss run whose broker read back another sync setting than the row's measured another
# configuration: left out and named (it once gave the fsynced row the default's 100,000 gone). A
# fixed-rate run cut short is marked.
results_dir other-sync kafka-replicated-sync
cat >"$out/kafka-kafka-replicated-sync-fixed.json" <<'JSON'
{"complete": false, "latency": {"publish": {"p50": 112.72, "p99": 423.1}},
 "brokerFacts": {"topic.flush.messages": "1", "topic.flush.ms": "0"}}
JSON
loss_run "$out/kafka-kafka-replicated-sync-loss-1.json" 230000 230000 ', "acknowledgedNotInRead": 0'
sed -i 's/"9223372036854775807"/"1"/; s/"9223372036854775807"/"0"/' "$out/kafka-kafka-replicated-sync-loss-1.json"
loss_run "$out/kafka-kafka-replicated-sync-loss-2.json" 230000 130000 ', "acknowledgedNotInRead": 100000'
r="$(row kafka-replicated-sync "$out")"
expect_cell "$r" 4 "messages=1, ms=0" "other sync, read back"
expect_cell "$r" 6 "112.72 / 423.1 (incomplete)" "other sync, fixed"
expect_cell "$r" 12 "0" "other sync, not in the log"
expect_cell "$r" 13 "1 (and 1 left out: read back messages=9223372036854775807, ms=9223372036854775807)" \
  "other sync, runs"
echo "power-loss-table: ok: a run that read back another sync setting is left out"

# A result without the one-node fault's goodput (written before it was recorded) says nothing of
# that outage: n/a, where the column once read 0.0 s.
results_dir no-goodput
loss_run "$out/kafka-kafka-replicated-loss-1.json" 230000 140000 ', "acknowledgedNotInRead": 100000'
python3 - "$out/kafka-kafka-replicated-loss-1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
del r["faults"][0]["unavailability"]["goodput"]
json.dump(r, open(sys.argv[1], "w"))
PY
r="$(row kafka-replicated "$out")"
expect_cell "$r" 10 "n/a" "no goodput, one node unavailable"
echo "power-loss-table: ok: no goodput, no one-node figure"

# An every-node outage still open when the run ended (JetStream's default: the stream never
# accepted a publish again) is the time to the end, not a restart: marked, where it once read as
# a restart of 65.0 s.
results_dir still-out
loss_run "$out/kafka-kafka-replicated-loss-1.json" 230000 140000 ', "acknowledgedNotInRead": 100000'
loss_run "$out/kafka-kafka-replicated-loss-2.json" 230000 140000 ', "acknowledgedNotInRead": 100000'
sed -i 's/"unavailableSeconds": 30.0/"unavailableSeconds": 65.0, "availableAgain": false/' \
  "$out/kafka-kafka-replicated-loss-2.json"
r="$(row kafka-replicated "$out")"
expect_cell "$r" 11 "30.0 to 65.0 (still out at the end: 1 of 2)" "still out, every node unavailable"
echo "power-loss-table: ok: an outage still open at the end is marked"

# A loss run that wrote no result (bin/benchmark failed before it could, or was killed) is counted
# apart, where the runs column once read 1 without a word.
results_dir no-result
loss_run "$out/kafka-kafka-replicated-loss-1.json" 230000 140000 ', "acknowledgedNotInRead": 100000'
echo "run done" >"$out/kafka-kafka-replicated-loss-1.log"
echo "error: killed" >"$out/kafka-kafka-replicated-loss-2.log"
r="$(row kafka-replicated "$out")"
expect_cell "$r" 13 "1 (and 1 left out: no result with both faults (see its console))" "no result, runs"
echo "power-loss-table: ok: a run without a result is counted apart"
