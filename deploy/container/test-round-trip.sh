#!/usr/bin/env bash
# The image's round trip: two worker containers and a coordinator container, all on the host's
# network but talking over 127.0.0.1 only (distinct ports), with a shared token, run the loopback
# driver's smoke workload; the result file must land on the host and show both workers' load.
#
#   deploy/container/test-round-trip.sh      (root; builds the image first if needed)
#
# The coordinator's two containers are the Helm chart's Job, rendered by helm and run as they are,
# so the chart's scripts run here too. Ports: PLUMB_TEST_WORKER_PORTS (default 28181,28182).
# Everything it starts is removed on exit, also on failure.
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
mount_token=(--volume "$work/token:/etc/plumb/token:ro")
small_heap=(--env "PLUMB_JAVA_OPTS=-Xms256m -Xmx512m -XX:+UseG1GC")

urls=()
for i in "${!ports[@]}"; do
  name="plumb-round-trip-worker-$((i + 1))-$$"
  names+=("$name")
  # Read-only root and a scratch /tmp, as in the chart's StatefulSet.
  podman_run --detach --name "$name" --network host --read-only --tmpfs /tmp \
    "${mount_token[@]}" "${small_heap[@]}" "$image" \
    worker --bind 127.0.0.1 --port "${ports[$i]}" --token-file /etc/plumb/token >/dev/null
  urls+=("http://127.0.0.1:${ports[$i]}")
done
echo "== workers started: ${urls[*]}"

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

# The coordinator runs exactly as the Helm chart's Job would run it: its wait-for-workers init
# container, then its coordinator container (read-only root, the token and results where the
# chart mounts them, its default loopback files), with the workers' cluster names swapped for
# this host's loopback URLs.
helm="$("$repo_root/deploy/kubernetes/tools.sh" helm)"
"$helm" template round-trip "$repo_root/deploy/kubernetes/plumb" \
  --set coordinator.keepResultsSeconds=0 --set coordinator.waitForWorkersSeconds=60 >"$work/chart.yaml"
/usr/bin/python3 - "$work" "$(IFS=,; echo "${urls[*]}")" <<'PY'
import sys, yaml

work, urls = sys.argv[1], sys.argv[2]
job = next(o for o in yaml.safe_load_all(open(f"{work}/chart.yaml")) if o and o["kind"] == "Job")
pod = job["spec"]["template"]["spec"]
for container in (pod["initContainers"][0], pod["containers"][0]):
    argv = container["command"] + container.get("args", [])
    if "--workers" in argv:
        argv[argv.index("--workers") + 1] = urls
    env = [e for e in container.get("env", []) if e["name"] != "PLUMB_JAVA_OPTS"]
    env = [f"{e['name']}={urls if e['name'] == 'PLUMB_WORKERS' else e['value']}" for e in env]
    with open(f"{work}/{container['name']}.argv", "w") as f:
        f.write("\0".join(argv) + "\0")
    with open(f"{work}/{container['name']}.env", "w") as f:
        f.write("".join(e + "\0" for e in env))
PY
container_argv() { mapfile -d '' argv <"$work/$1.argv"; mapfile -d '' env <"$work/$1.env"; env_options=(); for e in "${env[@]}"; do env_options+=(--env "$e"); done; }
chart_pod=(--network host --read-only --tmpfs /tmp --volume "$work/token:/etc/plumb/token/token:ro")

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
