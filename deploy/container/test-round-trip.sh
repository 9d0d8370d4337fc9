#!/usr/bin/env bash
# The image's round trip: two worker containers and a coordinator container, all on the host's
# network but talking over 127.0.0.1 only (distinct ports), with a shared token, run the loopback
# driver's smoke workload; the result file must land on the host and show both workers' load.
#
#   deploy/container/test-round-trip.sh      (root; builds the image first if needed)
#
# Each container is the Helm chart's (deploy/kubernetes/plumb), rendered by helm and run as it is
# (workers of its StatefulSet, the wait-for-workers and coordinator containers of its Job), so the
# chart's commands and scripts run against the real image here. A coordinator with a wrong token
# must be refused first. Ports: PLUMB_TEST_WORKER_PORTS (default 28181,28182). Everything it
# starts is removed on exit, also on failure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

IFS=, read -ra ports <<<"${PLUMB_TEST_WORKER_PORTS:-28181,28182}"
image="${PLUMB_TEST_IMAGE:-}"
work="$(mktemp -d /tmp/plumb-round-trip-XXXXXX)"
names=()

die() {
  echo "round-trip: $*" >&2
  exit 1
}

cleanup() {
  set +e
  for name in "${names[@]}"; do
    podman rm --force --time 5 "$name" >/dev/null 2>&1
  done
  rm -rf "$work"
}
trap cleanup EXIT

if [[ -z "$image" ]]; then
  "$container_dir/build-image.sh"
  archives=("$repo_root"/deploy/archive/target/plumb-*.tar.gz)
  version="$(basename "${archives[0]}" .tar.gz)"
  image="localhost/plumb:${version#plumb-}"
fi

for port in "${ports[@]}"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "port $port is taken: set PLUMB_TEST_WORKER_PORTS to two free ports"
  fi
done

# The token file belongs to the image's user (10001), readable by it alone.
openssl rand -hex 32 >"$work/token" 2>/dev/null || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/token"
mkdir "$work/results"
chown 10001:10001 "$work/token" "$work/results"
chmod 0400 "$work/token"
small_heap=(--env "PLUMB_JAVA_OPTS=-Xms256m -Xmx512m -XX:+UseG1GC")
# Every container runs as the Helm chart's pod runs it: the rendered command, arguments and
# environment, a read-only root with a scratch /tmp, the token where the chart's Secret is mounted.
# Only what ties it to a cluster changes: workers bind 127.0.0.1 (their pod's own address in a
# cluster) on this test's ports, the coordinator lists them by those URLs instead of by their
# cluster names, and the heap is smaller.
chart_pod=(--network host --read-only --tmpfs /tmp --volume "$work/token:/etc/plumb/token/token:ro")
urls=()
for port in "${ports[@]}"; do
  urls+=("http://127.0.0.1:$port")
done
helm="$("$repo_root/deploy/kubernetes/tools.sh" helm)"
for i in "${!ports[@]}"; do
  "$helm" template round-trip "$repo_root/deploy/kubernetes/plumb" --set "workers.port=${ports[$i]}" \
    --set coordinator.keepResultsSeconds=0 --set coordinator.waitForWorkersSeconds=60 >"$work/chart-$i.yaml"
done
/usr/bin/python3 - "$work" "$(IFS=,; echo "${urls[*]}")" "${#ports[@]}" <<'PY'
import sys, yaml

work, urls, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])

def write(name, container):
    argv = container.get("command", []) + container.get("args", [])
    if "--workers" in argv:
        argv[argv.index("--workers") + 1] = urls
    if "--bind" in argv:
        argv[argv.index("--bind") + 1] = "127.0.0.1"
    env = [e for e in container.get("env", []) if e["name"] != "PLUMB_JAVA_OPTS"]
    env = [f"{e['name']}={urls if e['name'] == 'PLUMB_WORKERS' else e['value']}" for e in env]
    with open(f"{work}/{name}.argv", "w") as f:
        f.write("".join(a + "\0" for a in argv))
    with open(f"{work}/{name}.env", "w") as f:
        f.write("".join(e + "\0" for e in env))

for i in range(workers):
    objects = [o for o in yaml.safe_load_all(open(f"{work}/chart-{i}.yaml")) if o]
    statefulset = next(o for o in objects if o["kind"] == "StatefulSet")
    write(f"worker-{i}", statefulset["spec"]["template"]["spec"]["containers"][0])
    if i == 0:
        pod = next(o for o in objects if o["kind"] == "Job")["spec"]["template"]["spec"]
        write("wait-for-workers", pod["initContainers"][0])
        write("coordinator", pod["containers"][0])
PY
# Reads a rendered container into argv (command and arguments) and env_options (--env NAME=VALUE).
container_argv() {
  mapfile -d '' argv <"$work/$1.argv"
  mapfile -d '' env <"$work/$1.env"
  env_options=()
  for e in "${env[@]}"; do env_options+=(--env "$e"); done
}

for i in "${!ports[@]}"; do
  name="plumb-round-trip-worker-$((i + 1))-$$"
  names+=("$name")
  container_argv "worker-$i"
  podman_run --detach --name "$name" "${chart_pod[@]}" "${env_options[@]}" "${small_heap[@]}" \
    "$image" "${argv[@]}" >/dev/null
done
echo "== the chart's workers started: ${urls[*]} ($(tr '\0' ' ' <"$work/worker-0.argv"))"

deadline=$((SECONDS + 60))
for i in "${!ports[@]}"; do
  until (exec 3<>"/dev/tcp/127.0.0.1/${ports[$i]}") 2>/dev/null; do
    if ((SECONDS >= deadline)) || [[ "$(podman inspect --format '{{.State.Running}}' "${names[$i]}")" != true ]]; then
      podman logs "${names[$i]}" >&2 || true
      die "worker ${urls[$i]} did not come up within 60 s"
    fi
    sleep 0.5
  done
done

# Without the token a worker refuses: the coordinator must fail, not run.
if podman_run --rm --network host "${small_heap[@]}" --env PLUMB_WORKER_TOKEN=wrong "$image" \
  benchmark --workers "$(IFS=,; echo "${urls[*]}")" --worker-roles both \
  -d benchmark-framework/loopback.yaml workloads/loopback-smoke.yaml -o /tmp/out >"$work/refused.log" 2>&1; then
  cat "$work/refused.log" >&2
  die "the coordinator ran with a wrong token"
fi
grep -q "refused the token (401)" "$work/refused.log" || { cat "$work/refused.log" >&2; die "a wrong token failed otherwise than by the workers' 401"; }
echo "== a wrong token is refused: $(grep -m1 'refused the token' "$work/refused.log")"

echo "== the chart's wait-for-workers container"
container_argv wait-for-workers
podman_run --rm "${chart_pod[@]}" "${env_options[@]}" --entrypoint "${argv[0]}" "$image" "${argv[@]:1}"

echo "== the chart's coordinator container: loopback driver, workloads/loopback-smoke.yaml"
container_argv coordinator
coordinator="plumb-round-trip-coordinator-$$"
names+=("$coordinator")
podman_run --name "$coordinator" "${chart_pod[@]}" "${env_options[@]}" "${small_heap[@]}" \
  --volume "$work/results:/results" --workdir /opt/plumb --entrypoint "${argv[0]}" "$image" "${argv[@]:1}"

# The result file is on the host and lists both workers with their counts; every worker's own
# counters (its /metrics, read with the token) show that it produced and consumed, and that the
# wrong token above was refused.
python3 - "$work/results" "$work/token" "${urls[@]}" <<'PY'
import json, pathlib, sys, urllib.request

results, token, urls = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]).read_text().strip(), sys.argv[3:]
files = sorted(results.glob("*.json"))
if len(files) != 1:
    sys.exit(f"round-trip: expected one result file in the results volume, found {[f.name for f in files]}")
result = json.loads(files[0].read_text())
counters = result["counters"]
problems = []
if not result["complete"]:
    problems.append(f"the run is incomplete: {result.get('incompleteReason')}")
if counters["sent"] <= 0 or counters["received"] < counters["sent"]:
    problems.append(f"sent {counters['sent']}, received {counters['received']}")
if counters["lost"] or counters["failed"]:
    problems.append(f"lost {counters['lost']}, failed {counters['failed']}")
listed = {w["url"].rstrip("/"): w for w in result["workers"]["workers"]}
if sorted(listed) != sorted(urls) or result["workers"]["roles"] != "both":
    problems.append(f"the result lists workers {sorted(listed)} in roles {result['workers']['roles']}, expected {urls} in both")
for url, worker in listed.items():
    if worker["lost"] or worker["sent"] <= 0 or worker["received"] <= 0:
        problems.append(f"the result shows worker {url} lost or idle: {worker}")
unauthorized = 0
for url in urls:
    request = urllib.request.Request(url + "/metrics", headers={"Authorization": "Bearer " + token})
    metrics = {}
    for line in urllib.request.urlopen(request, timeout=10).read().decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            metrics[name] = float(value)
    sent, received = metrics["plumb_worker_messages_sent_total"], metrics["plumb_worker_messages_received_total"]
    unauthorized += metrics["plumb_worker_unauthorized_requests_total"]
    print(f"== worker {url}: sent {sent:,.0f}, received {received:,.0f}")
    if sent <= 0 or received <= 0:
        problems.append(f"worker {url} sent {sent:.0f} and received {received:.0f} messages")
if unauthorized <= 0:
    problems.append("no worker counted the wrong token's request as unauthorized")
if problems:
    sys.exit("round-trip: " + "; ".join(problems))
print(f"== result file on the host: {files[0].name} (sent {counters['sent']:,}, received {counters['received']:,}, lost 0)")
PY
echo "round-trip: passed"
