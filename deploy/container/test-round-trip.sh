#!/usr/bin/env bash
# The image's round trip: two worker containers and a coordinator container, all on the host's
# network but talking over 127.0.0.1 only (distinct ports), with a shared token, run the loopback
# driver's smoke workload; the result file must land on the host and show both workers' load.
# It runs twice: on the image build-image.sh builds by default (mmdebstrap and buildah), then on
# the one deploy/container/Containerfile builds (build-image.sh --containerfile, on a copy of the
# Debian base without the user plumb, as public JRE bases come). Each image's tag, its label
# org.opencontainers.image.version and its `benchmark --version` must all give the project
# version (the root pom's).
#
#   deploy/container/test-round-trip.sh      (root; builds the images first if needed)
#
# Each container is the Helm chart's (deploy/kubernetes/plumb), rendered by helm and run as it is
# (workers of its StatefulSet, the wait-for-workers and coordinator containers of its Job), so the
# chart's commands and scripts run against the real image here. A coordinator with a wrong token
# must be refused first. Ports: PLUMB_TEST_WORKER_PORTS (default 28181,28182). PLUMB_TEST_IMAGE:
# test that image alone, built nothing. Everything it starts is removed on exit, also on failure.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

IFS=, read -ra ports <<<"${PLUMB_TEST_WORKER_PORTS:-28181,28182}"
image="${PLUMB_TEST_IMAGE:-}"
work="$(mktemp -d /tmp/plumb-round-trip-XXXXXX)"
names=()
bare=""

die() {
  echo "round-trip: $*" >&2
  exit 1
}

remove_containers() {
  local name
  for name in "${names[@]}"; do
    podman rm --force --time 5 "$name" >/dev/null 2>&1 || true
  done
  names=()
}
cleanup() {
  local status=$?
  set +e
  if ((status != 0)); then
    # A worker's side of a failed run (a lease that ran out, a stall) is in its log alone, and
    # the containers go next: keep its end where the failure is read.
    local name
    for name in "${names[@]}"; do
      [[ "$name" == *-coordinator-* ]] && continue # its output is above already
      echo "== the last lines of $name's log" >&2
      podman logs --tail 40 "$name" 2>&1 | sed 's/^/  /' >&2
    done
  fi
  remove_containers
  if [[ -n "$bare" ]]; then buildah rm "$bare" >/dev/null 2>&1; fi
  rm -rf "$work"
}
trap cleanup EXIT

version="$(project_version)"
images=()
if [[ -n "$image" ]]; then
  images=("$image")
else
  "$container_dir/build-image.sh"
  images+=("localhost/plumb:$version")
  podman image exists "${images[0]}" ||
    die "build-image.sh built no ${images[0]}: the archive's version is not the project's ($version)"
  # The Containerfile's base: the Debian base without the user plumb (10001), which public bases
  # (Temurin, Debian) lack too, so that the Containerfile's RUN step adds it as it must there.
  base="$(podman image inspect --format '{{index .Labels "io.plumb.base"}}' "${images[0]}")"
  bare_base="localhost/plumb-test-base-without-user:${base##*:}"
  if ! podman image exists "$bare_base"; then
    echo "== $bare_base: $base without the user plumb"
    bare="$(buildah from --pull-never "$base")"
    root_fs="$(buildah mount "$bare")"
    sed -i '/^plumb:/d' "$root_fs/etc/passwd" "$root_fs/etc/group"
    buildah umount "$bare" >/dev/null
    buildah commit --quiet --rm "$bare" "$bare_base" >/dev/null
    bare=""
    podman images --format '{{.Repository}}:{{.Tag}}' localhost/plumb-test-base-without-user |
      grep -vxF "$bare_base" | xargs -r podman rmi >/dev/null 2>&1 || true
  fi
  images+=("localhost/plumb-containerfile-test:$version")
  "$container_dir/build-image.sh" --containerfile --base "$bare_base" --tag "${images[1]}"
fi

# Every image says the project version: its tag, its version label and the jars' own version.
for image in "${images[@]}"; do
  label="$(podman image inspect --format '{{index .Labels "org.opencontainers.image.version"}}' "$image")"
  printed="$(podman_run --rm --network none "$image" benchmark --version 2>&1)" || true
  # (An image given in PLUMB_TEST_IMAGE may have any tag.)
  if [[ -z "${PLUMB_TEST_IMAGE:-}" && "${image##*:}" != "$version" ]] || [[ "$label" != "$version" || "$printed" != "Plumb $version" ]]; then
    die "$image: tag ${image##*:}, label org.opencontainers.image.version '$label', benchmark --version '$printed'; the project version is $version"
  fi
  echo "== $image: tag, version label and benchmark --version say $version; user $(podman image inspect --format '{{.Config.User}}' "$image")"
done

# The token file belongs to the image's user (10001), readable by it alone.
openssl rand -hex 32 >"$work/token" 2>/dev/null || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/token"
chown 10001:10001 "$work/token"
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
# Rendered for the newest Kubernetes the chart is checked against (the chart states the oldest).
read -ra kube_versions <<<"$("$repo_root/deploy/kubernetes/tools.sh" versions)"
# The token is this test's file, mounted where the chart mounts its Secret: the Secret's name is
# only for rendering.
chart_values=(--kube-version "${kube_versions[-1]}" --set coordinator.waitForWorkersSeconds=60
  --set token.existingSecret=round-trip-token)
# The driver file comes from a Secret, as a broker's credentials do (docs/guides/kubernetes.md):
# the chart mounts the Secret round-trip-driver in the coordinator and names the file in
# --drivers; here the Secret is a directory holding the loopback driver file, mounted there.
secret_drivers=/etc/plumb/secret-drivers
mkdir -p "$work/secret-drivers"
sed 's/^name: .*/name: Loopback from a Secret/' "$repo_root/benchmark-framework/loopback.yaml" \
  >"$work/secret-drivers/loopback.yaml"
chown -R 10001:10001 "$work/secret-drivers"
chmod 0440 "$work/secret-drivers/loopback.yaml"
chart_values+=(--set-json "coordinator.extraVolumes=[{\"name\":\"driver\",\"secret\":{\"secretName\":\"round-trip-driver\"}}]"
  --set-json "coordinator.extraVolumeMounts=[{\"name\":\"driver\",\"mountPath\":\"$secret_drivers\",\"readOnly\":true}]"
  --set-json "benchmark.driverFiles=[\"$secret_drivers/loopback.yaml\"]")
# A chart whose coordinator waits after the run for `kubectl cp` must not wait here.
if grep -q '^ *keepResultsSeconds:' "$repo_root/deploy/kubernetes/plumb/values.yaml"; then
  chart_values+=(--set coordinator.keepResultsSeconds=0)
fi
for i in "${!ports[@]}"; do
  "$helm" template round-trip "$repo_root/deploy/kubernetes/plumb" --set "workers.port=${ports[$i]}" \
    "${chart_values[@]}" >"$work/chart-$i.yaml"
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

# The result file is on the host and lists both workers with their counts; every worker's own
# counters (its /metrics, read with the token) show that it produced and consumed, and that the
# wrong token above was refused.
cat >"$work/check-result.py" <<'PY'
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
if result["driverConfig"]["file"] != "/etc/plumb/secret-drivers/loopback.yaml" or result["driver"] != "Loopback from a Secret":
    problems.append(f"the run did not use the driver file mounted from the Secret: {result['driverConfig']['file']}, {result['driver']}")
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

# One round trip on image $1 ($2 names its containers and results): the chart's workers, a wrong
# token refused, the chart's wait-for-workers and coordinator containers, then the checks above.
round_trip() {
  local image=$1
  for port in "${ports[@]}"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      die "port $port is taken: set PLUMB_TEST_WORKER_PORTS to two free ports"
    fi
  done
  results="$work/results-$2"
  mkdir "$results"
  chown 10001:10001 "$results"
  names=()
  for i in "${!ports[@]}"; do
    name="plumb-round-trip-$2-worker-$((i + 1))-$$"
    names+=("$name")
    container_argv "worker-$i"
    podman_run --detach --name "$name" "${chart_pod[@]}" "${env_options[@]}" "${small_heap[@]}" \
      "$image" "${argv[@]}" >/dev/null
  done
  echo "== $1: the chart's workers started: ${urls[*]} ($(tr '\0' ' ' <"$work/worker-0.argv"))"

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

  echo "== the chart's coordinator container: the loopback driver file from a Secret, workloads/loopback-smoke.yaml"
  container_argv coordinator
  coordinator="plumb-round-trip-$2-coordinator-$$"
  names+=("$coordinator")
  podman_run --name "$coordinator" "${chart_pod[@]}" "${env_options[@]}" "${small_heap[@]}" \
    --volume "$results:/results" --volume "$work/secret-drivers:$secret_drivers:ro" \
    --workdir /opt/plumb --entrypoint "${argv[0]}" "$image" "${argv[@]:1}"
  python3 "$work/check-result.py" "$results" "$work/token" "${urls[@]}"
  # The next round trip reuses the ports.
  remove_containers
}

for i in "${!images[@]}"; do
  round_trip "${images[$i]}" "image-$((i + 1))"
done
echo "round-trip: passed (${images[*]})"
