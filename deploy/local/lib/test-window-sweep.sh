#!/usr/bin/env bash
# Tests deploy/local/window-sweep.sh without a broker: a stand-in bin/benchmark (PLUMB_BENCHMARK)
# writes a result whose peak is 100 msg/s per unit of window, up to a broker limit of 5,000, with
# the window facts a driver would report. Checks the runs, the table, the stop once the peak stops
# rising, --all, the refusals of bad input and of a busy host, and a broker that does not answer.
# Seconds.
set -euo pipefail

# shellcheck source=testing.sh
source "$(dirname "${BASH_SOURCE[0]}")/testing.sh" window-sweep
SWEEP="$HERE/../window-sweep.sh"

cat >"$WORK/benchmark" <<'EOF'
#!/usr/bin/env bash
# Stand-in for bin/benchmark: the arguments it got, and a result at -o.
echo "$*" >>"${SWEEP_CALLS:?}"
[ -z "${SWEEP_UNREACHABLE:-}" ] || { echo "error: RabbitMQ at 127.0.0.1:5672 is not answering"; exit 3; }
window="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --driver-set) case "$2" in maxUnconfirmed=*) window="${2#*=}" ;; esac; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    *) shift ;;
  esac
done
if [ "$window" = 0 ]; then peak=5000 value=unbounded; else peak=$((window * 100)) value=$((window * 4)); fi
[ "$peak" -le 5000 ] || peak=5000
# SWEEP_PEAKS="WINDOW:PEAK ..." (0 for unbounded) gives a step's peak instead.
for given in ${SWEEP_PEAKS:-}; do
  [ "${given%%:*}" != "$window" ] || peak="${given#*:}"
done
cat >"$out" <<JSON
{"search": {"stablePeakMsgPerSec": $peak.0, "foundRateMsgPerSec": $peak.0},
 "brokerFacts": {"sendWindow": "$value", "sendWindow.limit": "maxUnconfirmed $window per partition channel x 4 partitions",
                 "receiveWindow": "4000", "receiveWindow.limit": "prefetchCount 1000 per partition queue x 4 partitions"}}
JSON
echo "run done"
EOF
chmod +x "$WORK/benchmark"

sweep() {
  SWEEP_CALLS="$WORK/calls" PLUMB_BENCHMARK="$WORK/benchmark" PLUMB_SWEEP_MAX_LOAD=any \
    "$SWEEP" "$@"
}

# A sweep that must succeed, its output in $WORK/stdout; a failure names the status, the sweep's
# own lines and the consoles of its runs, so a failure in CI says which step ended how.
sweep_ok() { # ARGS...
  local status=0 out="" arg previous=""
  sweep "$@" >"$WORK/stdout" 2>"$WORK/stderr" || status=$?
  ((status == 0)) && return 0
  for arg in "$@"; do
    [ "$previous" != -o ] || out="$arg"
    previous="$arg"
  done
  fail "sweep $* exited $status: $(cat "$WORK/stdout" "$WORK/stderr"; [ -z "$out" ] || tail -n 5 "$out"/*.log 2>&1)"
}

# The help teaches, and is the whole of what --help prints.
"$SWEEP" --help >"$WORK/help" || fail "--help exited non-zero"
grep -q '^Usage: deploy/local/window-sweep.sh' "$WORK/help" || fail "--help has no usage line"
grep -q 'Reading the table' "$WORK/help" || fail "--help does not say how to read the table"
echo "window-sweep: ok: --help"

# Growing windows: 1, 4, 16 rise; 64 reaches the limit; 256 and 1024 are flat: stop there.
: >"$WORK/calls"
sweep_ok -o "$WORK/out" driver-rabbitmq/rabbitmq-quorum-replicated.yaml
[ "$(wc -l <"$WORK/calls")" -eq 6 ] || fail "ran $(wc -l <"$WORK/calls") searches, not 6: $(cat "$WORK/calls")"
grep -q -- '--driver-set maxUnconfirmed=1024 --driver-set prefetchCount=1024 --probe-seconds 5 -o .*/rabbitmq-quorum-replicated-w1024.json workloads/replication-cost-1kb.yaml$' "$WORK/calls" ||
  fail "the window-1024 run was: $(grep 'maxUnconfirmed=1024' "$WORK/calls")"
grep -q -- '--driver-set maxUnconfirmed=1 --driver-set prefetchCount=1000 ' "$WORK/calls" ||
  fail "the prefetch floor was not applied: $(head -1 "$WORK/calls")"
grep -q 'maxUnconfirmed=4096\|maxUnconfirmed=0' "$WORK/calls" && fail "ran past the plateau"
grep -qx '| driver-rabbitmq/rabbitmq-quorum-replicated.yaml | 16 | 64 (maxUnconfirmed) | 4000 (prefetchCount) | 1,600 | +300% |  |' "$WORK/stdout" ||
  fail "the window-16 row: $(grep '| 16 |' "$WORK/stdout")"
grep -qx '| driver-rabbitmq/rabbitmq-quorum-replicated.yaml | 1024 | 4096 (maxUnconfirmed) | 4000 (prefetchCount) | 5,000 | +0% | flat (2) |' "$WORK/stdout" ||
  fail "the window-1024 row: $(grep '| 1024 |' "$WORK/stdout")"
grep -qx 'driver-rabbitmq/rabbitmq-quorum-replicated.yaml: the peak stopped rising from window 64 on (5,000 msg/s): the next 2 windows, up to 1024, added less than 5% each; there the broker, not the window, sets the peak.' "$WORK/stdout" ||
  fail "no plateau line: $(tail -3 "$WORK/stdout")"
cmp -s <(sed -n '/^| driver file/,$p' "$WORK/stdout" | head -8) <(sed -n '/^| driver file/,$p' "$WORK/out/table.md" | head -8) ||
  fail "table.md differs from the printed table"
echo "window-sweep: ok: windows grown until the peak stopped rising, the table and the plateau"

# --all runs every window, 'unbounded' as maxUnconfirmed=0, still marking the flat steps.
: >"$WORK/calls"
sweep_ok --all --windows 16,64,256,unbounded -o "$WORK/all" driver-rabbitmq/rabbitmq-quorum-replicated.yaml
[ "$(wc -l <"$WORK/calls")" -eq 4 ] || fail "--all ran $(wc -l <"$WORK/calls") searches, not 4"
grep -q -- '--driver-set maxUnconfirmed=0 --driver-set prefetchCount=1000 ' "$WORK/calls" ||
  fail "unbounded ran as: $(tail -1 "$WORK/calls")"
grep -q '| unbounded | unbounded (maxUnconfirmed) | .* | 5,000 | +0% | flat (2) |' "$WORK/stdout" ||
  fail "the unbounded row: $(grep '| unbounded |' "$WORK/stdout")"
# A peak still rising at the last window says so.
sweep_ok --windows 1,4 -o "$WORK/rising" driver-rabbitmq/rabbitmq-quorum-replicated.yaml
grep -q 'still rising at the last window (4, 400 msg/s)' "$WORK/stdout" || fail "no still-rising line"
# Still rising up to 'unbounded': no send window bounded that step.
sweep_ok --windows 4,unbounded -o "$WORK/unbounded" driver-rabbitmq/rabbitmq-quorum-replicated.yaml
grep -qx 'driver-rabbitmq/rabbitmq-quorum-replicated.yaml: still rising up to the unbounded window (5,000 msg/s), where no setting bounds the sends: that is the broker.s figure, unless the receive window, 4000 (prefetchCount), bounds the consumer.' "$WORK/stdout" ||
  fail "no line for a peak rising up to unbounded: $(tail -2 "$WORK/stdout")"
echo "window-sweep: ok: --all, unbounded, and a peak still rising"

# Flat steps may still rise a little (each under 5%): the peak stopped rising at the step before
# them, not at the highest of them. 256 rises +138%, 4096 and unbounded add 1% each.
SWEEP_PEAKS="16:4000 256:9500 4096:9600 0:9700" sweep_ok --windows 16,256,4096,unbounded \
  -o "$WORK/creep" driver-rabbitmq/rabbitmq-quorum-replicated.yaml
grep -qx 'driver-rabbitmq/rabbitmq-quorum-replicated.yaml: the peak stopped rising from window 256 on (9,500 msg/s): the next 2 windows, up to unbounded, added less than 5% each; there the broker, not the window, sets the peak.' "$WORK/stdout" ||
  fail "the plateau of a creeping peak: $(tail -2 "$WORK/stdout")"
echo "window-sweep: ok: the plateau starts where the flat steps begin, whatever they add"

# Bad input: one line naming the option and what it allows, exit 2, nothing run.
: >"$WORK/calls"
expect_refusal() { # EXPECTED-LINE ARGS...
  local expected="$1"
  shift
  local status=0
  sweep "$@" >/dev/null 2>"$WORK/err" || status=$?
  [ "$status" -eq 2 ] || fail "$* exited $status, not 2"
  [ "$(cat "$WORK/err")" = "$expected" ] || fail "$* printed: $(cat "$WORK/err")"
}
expect_refusal "window-sweep: --windows: 'ten'; allowed: whole numbers from 1 and 'unbounded'" --windows 1,ten
expect_refusal "window-sweep: --windows: '4' after '16'; the windows must grow, 'unbounded' last" --windows 16,4
expect_refusal "window-sweep: --windows: 'unbounded' has no value of maxOutstandingPublishes (driver-nats/nats-jetstream.yaml); give --unbounded-value V or leave it out" driver-nats/nats-jetstream.yaml
expect_refusal "window-sweep: driver-kafka/kafka.yaml: no default send-window setting for its driverClass; name one with --setting KEY (see --help)" driver-kafka/kafka.yaml
expect_refusal "window-sweep: --workload: workloads/quick-1kb-10k.yaml has no 'producerRate: 0', so bin/benchmark would not search for the peak" -w workloads/quick-1kb-10k.yaml
expect_refusal "window-sweep: --probe-seconds: '0'; allowed: a whole number from 1" --probe-seconds 0
expect_refusal "window-sweep: --driver-set prefetchCount=10: the sweep sets prefetchCount itself (driver-rabbitmq/rabbitmq-quorum-replicated.yaml); leave it out" --driver-set prefetchCount=10
[ ! -s "$WORK/calls" ] || fail "bad input ran: $(cat "$WORK/calls")"
echo "window-sweep: ok: bad input refused in one line, exit 2"

# A busy host is refused in one line before anything runs. The test keeps the load above 0.00.
status=0
SWEEP_CALLS="$WORK/calls" PLUMB_BENCHMARK="$WORK/benchmark" PLUMB_SWEEP_MAX_LOAD=0 \
  "$SWEEP" -o "$WORK/busy" >/dev/null 2>"$WORK/err" || status=$?
[ "$status" -eq 1 ] || fail "a load limit of 0 exited $status"
[ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q "^window-sweep: the host's 1-minute load average is .*PLUMB_SWEEP_MAX_LOAD=any" "$WORK/err" ||
  fail "busy host printed: $(cat "$WORK/err")"
[ ! -s "$WORK/calls" ] || fail "a busy host ran: $(cat "$WORK/calls")"
echo "window-sweep: ok: a busy host is refused in one line"

# A broker that does not answer stops the sweep at once with bin/benchmark's line and status 3.
status=0
SWEEP_UNREACHABLE=1 sweep -o "$WORK/down" >"$WORK/stdout" 2>"$WORK/err" || status=$?
[ "$status" -eq 3 ] || fail "an unreachable broker exited $status, not 3"
[ "$(wc -l <"$WORK/calls")" -eq 1 ] || fail "an unreachable broker ran $(wc -l <"$WORK/calls") searches"
grep -q 'status 3: error: RabbitMQ at 127.0.0.1:5672 is not answering' "$WORK/err" ||
  fail "unreachable printed: $(cat "$WORK/err")"
echo "window-sweep: ok: a broker not answering stops the sweep with status 3"

# The dry run prints the runs and starts none.
: >"$WORK/calls"
sweep_ok --dry-run --windows 4,unbounded -o "$WORK/dry"
[ "$(wc -l <"$WORK/stdout")" -eq 4 ] || fail "the dry run printed $(wc -l <"$WORK/stdout") lines, not 4"
[ ! -s "$WORK/calls" ] || fail "the dry run ran: $(cat "$WORK/calls")"
echo "window-sweep: ok: --dry-run"
