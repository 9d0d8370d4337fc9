#!/usr/bin/env bash
# Tests deploy/local/lib/native-pairs.sh without a broker: stand-in runs print known rates, and a
# stand-in bin/benchmark prints the ratios it was given. Checks the order of the runs (alternating
# which side goes first), the ratios, the median, the refusal of a busy host, and the steps the
# scripts share (the checks, the settings, Plumb's run, starting and stopping the broker). Seconds;
# run by bin/test-all.
set -euo pipefail

# shellcheck source=testing.sh
source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" native-pairs

cat >"$WORK/benchmark" <<'EOF'
#!/usr/bin/env bash
echo "interval of $*"
EOF
chmod +x "$WORK/benchmark"

# Pairs with native rates 100, 200, 400 and Plumb rates 50, 200, 500: ratios 0.5, 1, 1.25.
(
  # shellcheck source=native-pairs.sh
  source "$HERE/native-pairs.sh"
  native_rates=(0 100 200 400)
  plumb_rates=(0 50 200 500)
  native_run() {
    echo "native $1" >>"$WORK/order"
    echo "${native_rates[$1]} extra-native"
  }
  plumb_run() {
    echo "plumb $1" >>"$WORK/order"
    echo "${plumb_rates[$1]} extra-plumb"
  }
  print_pair() { printf 'pair %s ratio %s [%s] [%s]' "$@"; }
  before_pair() { echo "before $1" >>"$WORK/order"; }
  native_pairs_run 3 "$WORK/benchmark"
) >"$WORK/out"

order="$(tr '\n' ' ' <"$WORK/order")"
[[ "$order" == "before 1 native 1 plumb 1 before 2 plumb 2 native 2 before 3 native 3 plumb 3 " ]] ||
  fail "runs in the order '$order', not before_pair then the two sides, alternating which goes first"
grep -q '^pair 1 ratio 0.500 \[100 extra-native\] \[50 extra-plumb\]   (load average [0-9.]*)$' "$WORK/out" ||
  fail "pair 1 printed as: $(grep '^pair 1' "$WORK/out")"
grep -q '^pair 3 ratio 1.250 ' "$WORK/out" || fail "pair 3 printed as: $(grep '^pair 3' "$WORK/out")"
grep -qx 'median plumb/native: 1.000' "$WORK/out" || fail "median line: $(grep median "$WORK/out")"
grep -qx 'plumb/native over 3 pairs: interval of 0.500 1.000 1.250' "$WORK/out" ||
  fail "interval line: $(grep 'over 3 pairs' "$WORK/out")"
grep -q '^load average at the start: ' "$WORK/out" || fail "no load average at the start"
grep -q '^load average at the end: ' "$WORK/out" || fail "no load average at the end"
echo "native-pairs: ok: before_pair, runs alternating, ratios, median and interval as expected"

# The pair line of the scripts whose native run prints its rate after warm-up and over the whole run.
line="$(source "$HERE/native-pairs.sh" && native_pairs_line_with_whole 2 0.700 "319513.4 225792" "223750.2")"
[[ "$line" == "pair 2: native     319513 msg/s (whole run     225792)   plumb     223750 msg/s   plumb/native 0.700" ]] ||
  fail "native_pairs_line_with_whole printed: $line"
echo "native-pairs: ok: the pair line with the native whole-run rate"

# The parser a <broker>-vs-native.sh script runs on its native tool's output ($1: the script's name),
# applied to the output file $2: what native_run prints.
native_parser() {
  sed -n "/^  python3 - \"\$OUT\/native-\$1.out\" <<'PY'\$/,/^PY\$/p" "$HERE/../$1" | sed '1d;$d' >"$WORK/parser.py"
  [[ -s "$WORK/parser.py" ]] || fail "no native parser found in $1"
  python3 "$WORK/parser.py" "$2"
}

# PerfTest prints a second's rate below 10 msg/s with a decimal ("sent: 5.5 msg/s"): that second
# counts like any other. 19 seconds at 40,000 msg/s and one at 5.5 after the first 5 s: 38,000.275.
{
  for t in $(seq 1 25); do
    rate=40000
    ((t != 12)) || rate=5.5
    echo "id: test-120000-123, time $t.000 s, sent: $rate msg/s, received: $rate msg/s, min/median/75th/95th/99th consumer latency: 1/2/3/4/5 µs"
  done
  echo "id: test-120000-123, sending rate avg: 36000 msg/s"
  echo "id: test-120000-123, receiving rate avg: 36000 msg/s"
} >"$WORK/perftest.out"
rates="$(native_parser rabbitmq-vs-native.sh "$WORK/perftest.out")"
python3 -c 'import sys; s, w = sys.argv[1].split(); sys.exit(0 if abs(float(s) - 38000.275) < 1e-6 and w == "36000" else 1)' "$rates" ||
  fail "PerfTest's rates after 5 s read as '$rates', not '38000.275 36000'"
echo "native-pairs: ok: PerfTest's per-second rates, a slow second included"

# A host busier than the limit is refused with one line naming the load and the way round it.
refuse() {
  (
    # shellcheck source=native-pairs.sh
    source "$HERE/native-pairs.sh"
    native_pairs_refuse_busy_host test-script
    echo started
  )
}
# The test itself keeps the load above 0.00, so a limit of 0 refuses.
if PLUMB_VN_MAX_LOAD=0 refuse >"$WORK/refused.out" 2>"$WORK/refused.err"; then
  fail "a load limit of 0 did not refuse at load $(cut -d' ' -f1 /proc/loadavg)"
fi
[[ "$(wc -l <"$WORK/refused.err")" -eq 1 ]] &&
  grep -q '^test-script: the host.s 1-minute load average is .*PLUMB_VN_MAX_LOAD=any' "$WORK/refused.err" ||
  fail "refusal printed: $(cat "$WORK/refused.err")"
[[ ! -s "$WORK/refused.out" ]] || fail "a refused host started: $(cat "$WORK/refused.out")"
if PLUMB_VN_MAX_LOAD=lots refuse >/dev/null 2>"$WORK/bad.err"; then
  fail "PLUMB_VN_MAX_LOAD=lots was taken"
fi
grep -qx 'test-script: PLUMB_VN_MAX_LOAD=lots: allowed: a number (a load average) or any' "$WORK/bad.err" ||
  fail "PLUMB_VN_MAX_LOAD=lots printed: $(cat "$WORK/bad.err")"
PLUMB_VN_MAX_LOAD=any refuse | grep -qx started || fail "PLUMB_VN_MAX_LOAD=any did not start"
PLUMB_VN_MAX_LOAD=1000 refuse | grep -qx started || fail "a load limit of 1000 did not start"
echo "native-pairs: ok: a host above PLUMB_VN_MAX_LOAD is refused in one line; 'any' starts"

# The shared steps of the scripts, with a stand-in repository: a broker script that logs its
# commands and a bin/benchmark that prints its arguments and PLUMB_JAVA_OPTS.
mkdir -p "$WORK/repo/bin" "$WORK/repo/deploy/local" "$WORK/repo/driver-x/target" "$WORK/runs"
cat >"$WORK/repo/bin/benchmark" <<'EOF'
#!/usr/bin/env bash
echo "benchmark $* (PLUMB_JAVA_OPTS=${PLUMB_JAVA_OPTS:-})"
[[ "$*" != *fail* ]]
EOF
cat >"$WORK/repo/deploy/local/x.sh" <<'EOF'
#!/usr/bin/env bash
echo "x.sh $1" >>"$(dirname "$0")/calls"
[[ "$1" != status || -e "$(dirname "$0")/running" ]]
EOF
chmod +x "$WORK/repo/bin/benchmark" "$WORK/repo/deploy/local/x.sh"
steps() {
  (
    # shellcheck source=native-pairs.sh
    source "$HERE/native-pairs.sh"
    REPO="$WORK/repo" DRIVER_FILE=d.yaml WORKLOAD=w.yaml
    "$@"
  )
}
if PLUMB_VN_MAX_LOAD=any steps native_pairs_check x-vs-native driver-x 2>"$WORK/check.err"; then
  fail "native_pairs_check passed without the driver's jar"
fi
grep -qx "x-vs-native: driver-x is not built: run 'mvn -q package -DskipTests' in $WORK/repo first" \
  "$WORK/check.err" || fail "native_pairs_check without a jar printed: $(cat "$WORK/check.err")"
if PLUMB_VN_MAX_LOAD=any steps native_pairs_begin x XVN 2>"$WORK/begin.err"; then
  fail "native_pairs_begin passed without the driver's jar"
fi
cmp -s "$WORK/check.err" "$WORK/begin.err" || fail "native_pairs_begin without a jar printed: $(cat "$WORK/begin.err")"
touch "$WORK/repo/driver-x/target/driver-x-1.jar"
PLUMB_VN_MAX_LOAD=any steps native_pairs_check x-vs-native driver-x || fail "native_pairs_check refused a built driver"
begin() {
  native_pairs_begin x XVN
  echo "$PAIRS $OUT"
}
settings="$(PLUMB_VN_MAX_LOAD=any steps begin)" || fail "native_pairs_begin refused a built driver"
[[ "$settings" == "5 $WORK/repo/results/x-vs-native-"[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9] ]] ||
  fail "native_pairs_begin's default PAIRS and OUT: $settings"
settings="$(PLUMB_VN_MAX_LOAD=any PLUMB_XVN_PAIRS=3 PLUMB_XVN_OUT=/elsewhere steps begin)"
[[ "$settings" == "3 /elsewhere" ]] || fail "native_pairs_begin with PLUMB_XVN_PAIRS=3 PLUMB_XVN_OUT=/elsewhere: $settings"
plumb_side() {
  native_pairs_begin x XVN
  echo "$DRIVER_FILE $WORKLOAD"
}
side="$(PLUMB_VN_MAX_LOAD=any steps plumb_side)"
[[ "$side" == "$WORK/repo/driver-x/x.yaml $WORK/repo/workloads/x-vs-native.yaml" ]] ||
  fail "native_pairs_begin's DRIVER_FILE and WORKLOAD: $side"
# Sourcing the harness finds the repository from the harness's own place, not the caller's.
repo="$(cd /tmp && source "$HERE/native-pairs.sh" && echo "$REPO")"
[[ "$repo" == "$(cd "$HERE/../../.." && pwd)" ]] || fail "REPO after sourcing: $repo"
run_plumb() {
  native_pairs_benchmark "$1" "$WORK/runs" --driver-set a=b
}
PLUMB_JAVA_OPTS=-Xmx1g steps run_plumb 3 || fail "native_pairs_benchmark failed"
[[ "$(cat "$WORK/runs/plumb-3.out")" == "benchmark --drivers d.yaml --driver-set a=b -o $WORK/runs/plumb-3.json w.yaml (PLUMB_JAVA_OPTS=-Xmx1g)" ]] ||
  fail "native_pairs_benchmark ran: $(cat "$WORK/runs/plumb-3.out")"
fail_run() {
  native_pairs_name=x-vs-native
  native_pairs_benchmark 4 "$WORK/runs" fail
}
if steps fail_run 2>"$WORK/fail.err"; then
  fail "a failed bin/benchmark went unnoticed"
fi
[[ "$(tail -n 1 "$WORK/fail.err")" == "x-vs-native: bin/benchmark failed (pair 4)" ]] &&
  grep -q '^benchmark .* fail ' "$WORK/fail.err" || fail "a failed bin/benchmark printed: $(cat "$WORK/fail.err")"
echo '{"throughput": {"publishRateMsgPerSec": 1234.5, "targetRateMsgPerSec": 2000},
 "acknowledgeRate": [1234.5, 1234.5], "periodSeconds": [10, 10]}' >"$WORK/runs/r.json"
[[ "$(steps native_pairs_publish_rate "$WORK/runs/r.json")" == 1234.5 ]] || fail "native_pairs_publish_rate"
# The native tools count a message once it succeeded; publishRateMsgPerSec counts every send,
# failed ones included. Plumb's side is what the broker acknowledged: 1,000 msg/s sent for 20 s,
# the second 10 s with 40% of the sends failed, is 800 msg/s.
echo '{"throughput": {"publishRateMsgPerSec": 1000, "targetRateMsgPerSec": 2000},
 "acknowledgeRate": [1000, 600], "periodSeconds": [10, 10]}' >"$WORK/runs/failed.json"
rate="$(steps native_pairs_publish_rate "$WORK/runs/failed.json")"
[[ "$rate" == 800.0 ]] || fail "a run with failed sends counted $rate msg/s, not the 800 acknowledged"
# A Plumb run that reached 90% of its target was held by the workload's rate, not the broker.
echo '{"throughput": {"publishRateMsgPerSec": 1900, "targetRateMsgPerSec": 2000},
 "acknowledgeRate": [1900], "periodSeconds": [20]}' >"$WORK/runs/capped.json"
capped() {
  native_pairs_name=x-vs-native
  WORKLOAD=w.yaml
  native_pairs_publish_rate "$WORK/runs/capped.json"
}
if steps capped >"$WORK/capped.out" 2>"$WORK/capped.err"; then
  fail "a Plumb run held at its target rate went unnoticed: $(cat "$WORK/capped.out")"
fi
[[ "$(cat "$WORK/capped.err")" == "x-vs-native: Plumb published 1,900 msg/s, 95% of its target of 2,000: the target, not the broker, set its rate; raise producerRate in w.yaml" ]] ||
  fail "a capped Plumb run printed: $(cat "$WORK/capped.err")"
# A script's own plumb_run stops the comparison too when Plumb reached 90% of its target, though
# it runs inside a command substitution, where bash drops set -e: NATS's and Redis's read more of
# the result after the harness's check. One pair of native_pairs_run, in a shell of its own.
for script in nats-vs-native.sh redis-vs-native.sh; do
  cat >"$WORK/capped-pair.sh" <<EOF
set -euo pipefail
source "$HERE/native-pairs.sh"
TMP="$WORK/runs" native_pairs_name="${script%.sh}" WORKLOAD=w.yaml URL=nats://127.0.0.1:4222 PORT=6379
native_pairs_benchmark() {
  echo '{"throughput": {"publishRateMsgPerSec": 1900, "targetRateMsgPerSec": 2000, "consumeRateMsgPerSec": 1900},
 "counters": {"failed": 0}, "acknowledgeRate": [1900], "periodSeconds": [20]}' >"\$TMP/plumb-\$1.json"
}
native_run() { echo 1000 1000; }
print_pair() { echo "pair \$1 ratio \$2"; }
eval "\$(sed -n '/^plumb_run() {\$/,/^}\$/p' "$HERE/../$script")"
native_pairs_run 1 "$WORK/benchmark"
EOF
  if bash "$WORK/capped-pair.sh" >"$WORK/capped-pair.out" 2>"$WORK/capped-pair.err"; then
    fail "$script: a Plumb run held at its target rate went on: $(grep '^pair' "$WORK/capped-pair.out")"
  fi
  grep -q "^${script%.sh}: Plumb published 1,900 msg/s, 95% of its target" "$WORK/capped-pair.err" &&
    ! grep -q Traceback "$WORK/capped-pair.err" ||
    fail "$script: a capped Plumb run printed: $(cat "$WORK/capped-pair.err")"
  ! grep -q '^pair' "$WORK/capped-pair.out" || fail "$script: a capped pair was printed: $(grep '^pair' "$WORK/capped-pair.out")"
done
echo "native-pairs: ok: NATS's and Redis's runs stop when the target set Plumb's rate"
start_stop() {
  native_pairs_start_broker x
  echo "started=$native_pairs_started"
  native_pairs_stop_broker
}
[[ "$(steps start_stop)" == started=1 ]] || fail "a stopped broker was not started"
touch "$WORK/repo/deploy/local/running"
[[ "$(steps start_stop)" == started=0 ]] || fail "a running broker was started again"
calls="$(tr '\n' ' ' <"$WORK/repo/deploy/local/calls")"
[[ "$calls" == "x.sh status x.sh start x.sh stop x.sh status " ]] ||
  fail "the broker script was called: $calls (want a start and a stop only when it was not running)"
echo "native-pairs: ok: the checks, the pairs and output directory from the script's variables, Plumb's run, its publish rate, and the broker started and stopped only when it was not running"
