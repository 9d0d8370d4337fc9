#!/usr/bin/env bash
# Does the broker set the peak, or a client window? Runs the peak search once per window value and
# prints window -> stable peak, stopping once the peak stops rising. See --help.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

usage() {
  cat <<'EOF'
Usage: deploy/local/window-sweep.sh [OPTIONS] [DRIVER_FILE...]

Whether a client window, not the broker, sets a peak. A producer whose send window is full
waits for an acknowledgement before it sends again, so its rate is at most about
window / round trip: a small window makes every broker look alike. This sweep runs the peak
search (bin/benchmark, producerRate 0) once per window value, growing the window, and prints
window -> stable peak. Where the peak stops rising as the window grows, the broker's own
figure is reached; a peak that still rises at the last window was bounded by the client.

Defaults: the 3-node RabbitMQ quorum and classic mirrored files
(driver-rabbitmq/rabbitmq-quorum-replicated.yaml, driver-rabbitmq/rabbitmq-classic-mirrored.yaml)
with workloads/replication-cost-1kb.yaml (one producer, one consumer, 1 KB, 4 partitions),
windows 1,4,16,64,256,1024,4096,unbounded of maxUnconfirmed, prefetchCount grown with them.
Start the cluster first (deploy/local/rabbitmq.sh start --nodes 3); this script starts and
stops no broker.

Options:
  -w, --workload FILE      the peak workload (producerRate: 0); default
                           workloads/replication-cost-1kb.yaml
  --windows LIST           window values, comma-separated, smallest first: whole numbers and
                           'unbounded' (default 1,4,16,64,256,1024,4096,unbounded)
  --setting KEY            the --driver-set key that sets the send window (default from the
                           file's driverClass: maxUnconfirmed for RabbitMQ AMQP,
                           maxUnconfirmedMessages for its stream protocol,
                           producer.pendingQueueSize for Pulsar, maxOutstandingPublishes for NATS,
                           pipelineDepth for Redis; Kafka has none, name one, e.g.
                           max.in.flight.requests.per.connection)
  --unbounded-value V      what the setting takes for 'unbounded' (default 0 for maxUnconfirmed
                           and producer.pendingQueueSize; the others have no such value)
  --receive-setting KEY    a consumer-side window grown with the send window, so the consumer
                           does not become the bound: set to max(FLOOR, window), and to the
                           largest window for 'unbounded' (default prefetchCount for RabbitMQ
                           AMQP; 'none' leaves the file's)
  --receive-floor N        FLOOR above (default 1000, the AMQP driver's prefetchCount)
  --driver-set KEY=VALUE   passed to every run, e.g. ackBatchSize=1 with a floor below 64 (not
                           the settings the sweep varies)
  --probe-seconds N        measured length of each search probe (default 5)
  --measure-seconds N      length of the measurement at the rate found (default: the
                           workload's testDurationSeconds)
  --flat PERCENT           a step is flat when its peak is less than PERCENT above the best
                           peak before it (default 5)
  --flat-steps N           stop a file after N flat steps in a row (default 2)
  --all                    run every window even after the peak stopped rising (flat steps are
                           still marked)
  -o, --output DIR         where results go (default results/window-sweep-<time>/): per run
                           <file>-w<window>.json and .log, and table.md
  --dry-run                print the runs without starting any
  -h, --help               this text

Environment:
  PLUMB_SWEEP_MAX_LOAD     the highest 1-minute load average at which the sweep starts (default:
                           half the host's cores); 'any' starts whatever the load. Other work on
                           the host swings each search by 2x or more, which would pass for a
                           window's effect.
  PLUMB_BENCHMARK          the bin/benchmark to run (default bin/benchmark)

Reading the table: 'send window' and 'receive window' are what the result's brokerFacts say
was in force (sendWindow, receiveWindow: per producer and per consumer, the driver's own
count, e.g. maxUnconfirmed x partitions), with the setting that decided it. 'vs best before'
is the peak against the best smaller window. A plateau (two flat steps) means a larger window
buys nothing: from there the broker, not the client, sets the peak, and that plateau is the
figure to compare queue types with. Figures from a host whose cores the broker shares with the
load generator compare within one file only.

Example, three windows with short probes:
  deploy/local/rabbitmq.sh start --nodes 3
  deploy/local/window-sweep.sh --windows 16,256,unbounded --probe-seconds 3 \
    --measure-seconds 5 driver-rabbitmq/rabbitmq-quorum-replicated.yaml
  deploy/local/rabbitmq.sh stop
Builds nothing: run `mvn -q package -DskipTests` first.
Exit status: 0 done, 1 busy host or a run failed, 2 bad input, 3 the broker did not answer.
EOF
}

die() { # STATUS MESSAGE
  echo "window-sweep: $2" >&2
  exit "$1"
}

workload=workloads/replication-cost-1kb.yaml
windows_text=1,4,16,64,256,1024,4096,unbounded
setting_option=""
unbounded_option=""
receive_option=""
receive_floor=1000
probe_seconds=5
measure_seconds=""
flat_percent=5
flat_steps=2
run_all=false
out=""
dry_run=false
extra=()
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    -w | --workload) workload="${2:?--workload needs a file}"; shift 2 ;;
    --windows) windows_text="${2:?--windows needs a list}"; shift 2 ;;
    --setting) setting_option="${2:?--setting needs a key}"; shift 2 ;;
    --unbounded-value) unbounded_option="${2:?--unbounded-value needs a value}"; shift 2 ;;
    --receive-setting) receive_option="${2:?--receive-setting needs a key or none}"; shift 2 ;;
    --receive-floor) receive_floor="${2:?--receive-floor needs a number}"; shift 2 ;;
    --driver-set) extra+=(--driver-set "${2:?--driver-set needs KEY=VALUE}"); shift 2 ;;
    --probe-seconds) probe_seconds="${2:?--probe-seconds needs a number}"; shift 2 ;;
    --measure-seconds) measure_seconds="${2:?--measure-seconds needs a number}"; shift 2 ;;
    --flat) flat_percent="${2:?--flat needs a percentage}"; shift 2 ;;
    --flat-steps) flat_steps="${2:?--flat-steps needs a number}"; shift 2 ;;
    --all) run_all=true; shift ;;
    -o | --output) out="${2:?--output needs a directory}"; shift 2 ;;
    --dry-run) dry_run=true; shift ;;
    -*) die 2 "unknown option '$1' (see --help)" ;;
    *) files+=("$1"); shift ;;
  esac
done
[ ${#files[@]} -gt 0 ] ||
  files=(driver-rabbitmq/rabbitmq-quorum-replicated.yaml driver-rabbitmq/rabbitmq-classic-mirrored.yaml)

# Checks, before anything runs: one line each, naming the option and what it allows.
[ -f "$workload" ] || die 2 "--workload: no file $workload"
grep -Eq '^producerRate: *0 *$' "$workload" ||
  die 2 "--workload: $workload has no 'producerRate: 0', so bin/benchmark would not search for the peak"
for number in "--receive-floor:$receive_floor" "--probe-seconds:$probe_seconds" \
  "--flat-steps:$flat_steps" "--measure-seconds:${measure_seconds:-1}"; do
  [[ "${number#*:}" =~ ^[1-9][0-9]*$ ]] || die 2 "${number%%:*}: '${number#*:}'; allowed: a whole number from 1"
done
[[ "$flat_percent" =~ ^[0-9]+([.][0-9]+)?$ ]] || die 2 "--flat: '$flat_percent'; allowed: a percentage, e.g. 5"
IFS=, read -ra windows <<<"$windows_text"
[ ${#windows[@]} -gt 0 ] || die 2 "--windows: empty; allowed: whole numbers and 'unbounded', comma-separated"
largest=0
previous=0
for w in "${windows[@]}"; do
  if [ "$w" = unbounded ]; then
    previous=unbounded
    continue
  fi
  [[ "$w" =~ ^[1-9][0-9]*$ ]] || die 2 "--windows: '$w'; allowed: whole numbers from 1 and 'unbounded'"
  [ "$previous" != unbounded ] && [ "$w" -gt "$previous" ] ||
    die 2 "--windows: '$w' after '$previous'; the windows must grow, 'unbounded' last"
  previous="$w"
  largest="$w"
done

# The send and receive settings of a driver file, from its driverClass unless given.
defaults_for() { # FILE -> "SETTING UNBOUNDED_VALUE RECEIVE_SETTING" ('-' for none)
  local class
  class="$(sed -n 's/^driverClass: *//p' "$1" | tr -d '"'"'" | head -1)"
  case "$class" in
    *RabbitMqStreamBenchmarkDriver) echo "maxUnconfirmedMessages - -" ;;
    *RabbitMqBenchmarkDriver) echo "maxUnconfirmed 0 prefetchCount" ;;
    *PulsarBenchmarkDriver) echo "producer.pendingQueueSize 0 -" ;;
    *NatsBenchmarkDriver) echo "maxOutstandingPublishes - -" ;;
    *RedisBenchmarkDriver) echo "pipelineDepth - -" ;;
    *) echo "- - -" ;;
  esac
}

declare -A send_key unbounded_value receive_key
for file in "${files[@]}"; do
  [ -f "$file" ] || die 2 "no driver file $file"
  read -r key unbounded receive <<<"$(defaults_for "$file")"
  key="${setting_option:-$key}"
  [ "$key" != - ] ||
    die 2 "$file: no default send-window setting for its driverClass; name one with --setting KEY (see --help)"
  if [ -n "$setting_option" ] && [ -z "$unbounded_option" ]; then
    unbounded=-
  fi
  unbounded="${unbounded_option:-$unbounded}"
  receive="${receive_option:-$receive}"
  [ "$receive" != none ] || receive=-
  if [[ ",$windows_text," == *,unbounded,* ]] && [ "$unbounded" = - ]; then
    die 2 "--windows: 'unbounded' has no value of $key ($file); give --unbounded-value V or leave it out"
  fi
  # bin/benchmark refuses a --driver-set key given twice: the sweep's own window settings would be.
  for ((i = 1; i < ${#extra[@]}; i += 2)); do
    given="${extra[i]%%=*}"
    [ "$given" != "$key" ] && [ "$given" != "$receive" ] ||
      die 2 "--driver-set ${extra[i]}: the sweep sets $given itself ($file); leave it out"
  done
  send_key[$file]="$key"
  unbounded_value[$file]="$unbounded"
  receive_key[$file]="$receive"
done

benchmark="${PLUMB_BENCHMARK:-bin/benchmark}"
[ -n "$out" ] || out="results/window-sweep-$(date +%Y%m%d-%H%M%S)"

# The --driver-set arguments of one step.
step_args() { # FILE WINDOW
  local file="$1" w="$2" value receive_value
  value="$w"
  [ "$w" != unbounded ] || value="${unbounded_value[$file]}"
  echo "--driver-set ${send_key[$file]}=$value"
  if [ "${receive_key[$file]}" != - ]; then
    receive_value="$w"
    [ "$w" != unbounded ] || receive_value="$largest"
    [ "$receive_value" -ge "$receive_floor" ] || receive_value="$receive_floor"
    echo "--driver-set ${receive_key[$file]}=$receive_value"
  fi
}

name_of() { # FILE WINDOW
  local base
  base="$(basename "$1")"
  echo "${base%.yaml}-w$2"
}

if $dry_run; then
  for file in "${files[@]}"; do
    for w in "${windows[@]}"; do
      # shellcheck disable=SC2046
      echo "$benchmark -d $file $(step_args "$file" "$w" | tr '\n' ' ')${extra[*]:+${extra[*]} }--probe-seconds $probe_seconds -o $out/$(name_of "$file" "$w").json $workload"
    done
  done
  exit 0
fi

# A busy host makes a window's effect and the neighbour's indistinguishable: refuse it.
max_load="${PLUMB_SWEEP_MAX_LOAD:-}"
if [ "$max_load" != any ]; then
  [ -n "$max_load" ] || max_load="$(python3 -c 'import os; print(os.cpu_count() / 2)')"
  [[ "$max_load" =~ ^[0-9]+([.][0-9]+)?$ ]] ||
    die 1 "PLUMB_SWEEP_MAX_LOAD=$max_load: allowed: a number (a load average) or any"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' "$load" "$max_load"; then
    die 1 "the host's 1-minute load average is $load, above $max_load: other work would swing the peaks; wait for it to end, or set PLUMB_SWEEP_MAX_LOAD=any (or a higher number) to run anyway"
  fi
fi

mkdir -p "$out"
if [ -n "$measure_seconds" ]; then
  # A copy of the workload whose final measurement lasts --measure-seconds.
  copy="$out/$(basename "$workload")"
  if grep -q '^testDurationSeconds:' "$workload"; then
    sed "s/^testDurationSeconds:.*/testDurationSeconds: $measure_seconds/" "$workload" >"$copy"
  else
    { cat "$workload"; echo "testDurationSeconds: $measure_seconds"; } >"$copy"
  fi
  workload="$copy"
fi

# What a result says: peak, whether the final measurement held it, and the windows in force.
read_result() { # JSON -> peak|held|sendWindow|sendSetting|receiveWindow|receiveSetting
  python3 - "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print("|".join(["", "no result", "", "", "", ""]))
    sys.exit(0)
s = r.get("search", {})
peak, held = s.get("stablePeakMsgPerSec"), "held"
if not isinstance(peak, (int, float)):
    peak, held = s.get("foundRateMsgPerSec"), "search only"
facts = r.get("brokerFacts", {})
def side(name):
    value = facts.get(name, "")
    limit = facts.get(name + ".limit", "")
    return value, (limit.split(" ", 1)[0].rstrip(",;:") if limit else "")
sw, ss = side("sendWindow")
rw, rs = side("receiveWindow")
print("|".join([f"{peak:.0f}" if isinstance(peak, (int, float)) else "", held, sw, ss, rw, rs]))
PY
}

table="$out/table.tsv"
: >"$table"
status=0
for file in "${files[@]}"; do
  header="== $file: the send window by ${send_key[$file]}"
  [ "${receive_key[$file]}" = - ] ||
    header+=", the receive window by ${receive_key[$file]} (at least $receive_floor)"
  echo "$header"
  best=0
  flat=0
  for w in "${windows[@]}"; do
    name="$(name_of "$file" "$w")"
    read -ra args <<<"$(step_args "$file" "$w" | tr '\n' ' ')"
    echo "   window $w: searching (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    set +e
    "$benchmark" -d "$file" "${args[@]}" "${extra[@]}" --probe-seconds "$probe_seconds" \
      -o "$out/$name.json" "$workload" >"$out/$name.log" 2>&1
    run_status=$?
    set -e
    IFS='|' read -r peak held send_window send_setting receive_window receive_setting \
      <<<"$(read_result "$out/$name.json")"
    note=""
    if [ "$run_status" -eq 2 ] || [ "$run_status" -eq 3 ]; then
      # Bad input or no broker: every other step would end the same way.
      line="$(grep -m1 '^error' "$out/$name.log" || tail -1 "$out/$name.log")"
      echo "   window $w: bin/benchmark ended with status $run_status: $line" >&2
      printf '%s\t%s\t\t\t\t\t\t\t%s\n' "$file" "$w" "status $run_status: $line" >>"$table"
      status="$run_status"
      break 2
    elif [ "$run_status" -ne 0 ]; then
      note="status $run_status, see $out/$name.log"
      status=1
    fi
    gain=""
    if [ -n "$peak" ]; then
      if [ "$best" -gt 0 ]; then
        gain="$(python3 -c 'import sys; print(f"{(float(sys.argv[1]) / float(sys.argv[2]) - 1) * 100:+.0f}%")' "$peak" "$best")"
        if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) * (1 + float(sys.argv[3]) / 100) else 1)' "$peak" "$best" "$flat_percent"; then
          flat=$((flat + 1))
          note="${note:+$note; }flat ($flat)"
        else
          flat=0
        fi
      fi
      [ "$peak" -le "$best" ] || best="$peak"
    fi
    [ "$held" = held ] || note="${note:+$note; }$held"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$w" "$send_window" "$send_setting" \
      "$receive_window" "$receive_setting" "$peak" "$gain" "$note" >>"$table"
    shown_send="n/a" shown_receive="n/a"
    [ -z "$send_window" ] || shown_send="$send_window ($send_setting)"
    [ -z "$receive_window" ] || shown_receive="$receive_window ($receive_setting)"
    echo "   window $w: peak ${peak:-n/a} msg/s ($held) ${gain:+$gain vs best before }| send $shown_send | receive $shown_receive${note:+ | $note}"
    if [ "$flat" -ge "$flat_steps" ]; then
      printf '%s\tplateau\t%s\n' "$file" "$w" >>"$table"
      if ! $run_all; then
        echo "   the peak stopped rising ($flat_steps steps under +$flat_percent%): larger windows skipped (--all runs them)"
        break
      fi
    fi
  done
done

python3 - "$table" "$flat_percent" "$flat_steps" <<'PY' | tee "$out/table.md"
import sys
table, flat_percent, flat_steps = sys.argv[1], sys.argv[2], sys.argv[3]
rows, plateaus, order = {}, {}, []
for line in open(table):
    cells = line.rstrip("\n").split("\t")
    if len(cells) == 3 and cells[1] == "plateau":
        plateaus.setdefault(cells[0], cells[2])
        continue
    cells += [""] * (9 - len(cells))
    if cells[0] not in rows:
        order.append(cells[0])
    rows.setdefault(cells[0], []).append(cells[1:])
print()
print("| driver file | window asked | send window in force | receive window in force | stable peak (msg/s) | vs best before | note |")
print("|---|---:|---|---|---:|---:|---|")
for file in order:
    for w, sw, ss, rw, rs, peak, gain, note in rows[file]:
        send = f"{sw} ({ss})" if sw else "n/a"
        receive = f"{rw} ({rs})" if rw else "n/a"
        shown = f"{int(peak):,}" if peak else "n/a"
        print(f"| {file} | {w} | {send} | {receive} | {shown} | {gain} | {note} |")
print()
for file in order:
    peaks = [(w, int(p)) for w, _, _, _, _, p, _, _ in rows[file] if p]
    if file in plateaus:
        # The step before the flat ones: flat steps may still add a little, each under the threshold.
        end = next(i for i, (w, _) in enumerate(peaks) if w == plateaus[file])
        start, top = peaks[end - int(flat_steps)]
        print(f"{file}: the peak stopped rising from window {start} on ({top:,} msg/s): the next"
              f" {flat_steps} windows, up to {plateaus[file]}, added less than {flat_percent}% each;"
              " there the broker, not the window, sets the peak.")
    elif peaks and peaks[-1][0] == "unbounded":
        p = peaks[-1][1]
        receive = next((f"{rw} ({rs})" for w, _, _, rw, rs, *_ in rows[file] if w == "unbounded" and rw), "")
        print(f"{file}: still rising up to the unbounded window ({p:,} msg/s), where no setting bounds"
              " the sends: that is the broker's figure"
              + (f", unless the receive window, {receive}, bounds the consumer." if receive else "."))
    elif peaks:
        w, p = peaks[-1]
        print(f"{file}: still rising at the last window ({w}, {p:,} msg/s): the window may still be"
              " the bound; try larger windows.")
    else:
        print(f"{file}: no peak measured.")
PY
echo "(results and consoles in $out)"
exit "$status"
