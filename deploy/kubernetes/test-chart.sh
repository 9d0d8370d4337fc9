#!/usr/bin/env bash
# Checks the Helm chart in deploy/kubernetes/plumb without a cluster:
#   - helm lint --strict, with the default values and with every optional value set;
#   - helm template, validated by kubeconform -strict against Kubernetes' own schemas (unknown or
#     misspelled fields are errors) for the oldest and newest Kubernetes versions pinned in tools.sh;
#   - two releases rendered into one namespace share no object name, and each one's selectors
#     match only its own pods;
#   - the coordinator's worker URLs are the StatefulSet pods' stable names, and every pod reads the
#     token from the Secret the chart makes (or the one named in token.existingSecret);
#   - misspelled values and values outside what is allowed fail with an error naming the value
#     (values.schema.json).
#
#   deploy/kubernetes/test-chart.sh
#
# Tools (pinned, built once and cached): see tools.sh. Python 3 with PyYAML (Debian's python3-yaml).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
chart="$here/plumb"
helm="$("$here/tools.sh" helm)"
kubeconform="$("$here/tools.sh" kubeconform)"
schemas="$("$here/tools.sh" schemas)"
read -ra kubernetes_versions <<<"$("$here/tools.sh" versions)"
work="$(mktemp -d /tmp/plumb-chart-XXXXXX)"
trap 'rm -rf "$work"' EXIT
namespace=bench
checks=0

fail() {
  echo "chart: FAILED: $*" >&2
  exit 1
}
pass() {
  checks=$((checks + 1))
  echo "chart: ok: $*"
}

echo "== $("$here/tools.sh" pins), schemas of Kubernetes ${kubernetes_versions[*]}"

"$helm" lint --strict --quiet "$chart" >"$work/lint.log" 2>&1 || { cat "$work/lint.log" >&2; fail "helm lint --strict (default values)"; }
pass "helm lint --strict, default values"
"$helm" lint --strict --quiet "$chart" -f "$here/test/values-full.yaml" >"$work/lint.log" 2>&1 ||
  { cat "$work/lint.log" >&2; fail "helm lint --strict (test/values-full.yaml)"; }
pass "helm lint --strict, every optional value set (test/values-full.yaml)"

render() { # render RELEASE OUT [helm options]
  local release="$1" out="$2"
  shift 2
  "$helm" template "$release" "$chart" --namespace "$namespace" "$@" >"$out" 2>"$work/template.log" ||
    { cat "$work/template.log" >&2; fail "helm template $release $*"; }
}
render bench-a "$work/a.yaml"
render bench-b "$work/b.yaml"
render full "$work/full.yaml" -f "$here/test/values-full.yaml"

for version in "${kubernetes_versions[@]}"; do
  for manifest in a full; do
    if ! "$kubeconform" -strict -summary -kubernetes-version "${version#v}" \
      -schema-location "$schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
      "$work/$manifest.yaml" >"$work/kubeconform.log" 2>&1; then
      cat "$work/kubeconform.log" >&2
      fail "kubeconform -strict, Kubernetes $version, $manifest values"
    fi
    grep -q 'Invalid: 0, Errors: 0, Skipped: 0' "$work/kubeconform.log" || { cat "$work/kubeconform.log" >&2; fail "kubeconform skipped or failed a resource"; }
    pass "kubeconform -strict, Kubernetes $version, $([[ $manifest == a ]] && echo default || echo full) values: $(sed -n 's/^Summary: //p' "$work/kubeconform.log")"
  done
done

# The schema check itself must catch a misspelled field, or the passes above prove nothing.
sed 's/^  clusterIP: None$/  clusterIp: None/' "$work/a.yaml" >"$work/misspelled.yaml"
if "$kubeconform" -strict -kubernetes-version "${kubernetes_versions[0]#v}" \
  -schema-location "$schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
  "$work/misspelled.yaml" >"$work/kubeconform.log" 2>&1; then
  fail "kubeconform -strict accepted a Service with 'clusterIp' (misspelled clusterIP)"
fi
grep -q "additional properties 'clusterIp' not allowed" "$work/kubeconform.log" || { cat "$work/kubeconform.log" >&2; fail "kubeconform's error does not name clusterIp"; }
pass "kubeconform -strict rejects a misspelled field (clusterIp)"

render bench-token "$work/token.yaml" --set token.value=s3cret-token
render own-files "$work/own-files.yaml" --set-file 'benchmark.drivers.my-driver\.yaml'="$here/../../benchmark-framework/loopback.yaml" \
  --set-file 'benchmark.workloads.my-workload\.yaml'="$here/../../workloads/loopback-smoke.yaml"

/usr/bin/python3 - "$work" "$namespace" <<'PY' || fail "rendered objects (above)"
import base64, sys, yaml

work, namespace = sys.argv[1], sys.argv[2]

def objects(name):
    with open(f"{work}/{name}.yaml") as f:
        return [o for o in yaml.safe_load_all(f) if o]

def one(objs, kind):
    found = [o for o in objs if o["kind"] == kind]
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]

def ok(message):
    print(f"chart: ok: {message}")

a, b = objects("a"), objects("b")
names_a = {o["metadata"]["name"] for o in a}
names_b = {o["metadata"]["name"] for o in b}
common = names_a & names_b
assert not common, f"releases bench-a and bench-b in one namespace share names: {sorted(common)}"
ok(f"two releases in one namespace: {len(names_a)} + {len(names_b)} objects, no name in common")

def pod_labels(objs):
    labels = []
    for o in objs:
        if o["kind"] in ("StatefulSet", "Job"):
            labels.append(o["spec"]["template"]["metadata"]["labels"])
    return labels

for mine, theirs, release in ((a, b, "bench-a"), (b, a, "bench-b")):
    selectors = [one(mine, "Service")["spec"]["selector"],
                 one(mine, "StatefulSet")["spec"]["selector"]["matchLabels"]]
    for selector in selectors:
        assert any(selector.items() <= l.items() for l in pod_labels(mine)), f"{release}: a selector matches none of its own pods: {selector}"
        assert not any(selector.items() <= l.items() for l in pod_labels(theirs)), f"{release}: a selector matches the other release's pods: {selector}"
ok("each release's Service and StatefulSet select only its own workers")

def check_wiring(objs, release, replicas, port, secret):
    sts, svc, job = one(objs, "StatefulSet"), one(objs, "Service"), one(objs, "Job")
    assert sts["spec"]["serviceName"] == svc["metadata"]["name"], "the StatefulSet's serviceName is not the headless Service"
    assert svc["spec"]["clusterIP"] == "None", "the workers' Service is not headless"
    assert sts["spec"]["replicas"] == replicas
    expected = ",".join(f"http://{sts['metadata']['name']}-{i}.{svc['metadata']['name']}.{namespace}.svc:{port}" for i in range(replicas))
    args = job["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args[args.index("--workers") + 1] == expected, f"coordinator --workers {args[args.index('--workers') + 1]}, expected {expected}"
    init_env = {e["name"]: e["value"] for e in job["spec"]["template"]["spec"]["initContainers"][0]["env"]}
    assert init_env["PLUMB_WORKERS"] == expected, "the wait-for-workers container waits for other workers"
    for pod in (sts, job):
        volumes = {v["name"]: v for v in pod["spec"]["template"]["spec"]["volumes"]}
        assert volumes["token"]["secret"]["secretName"] == secret, f"{pod['kind']} reads the token from {volumes['token']['secret']['secretName']}, not {secret}"
    assert job["spec"]["backoffLimit"] == 0
    return sts, job

sts, job = check_wiring(a, "bench-a", 2, 8080, "bench-a-plumb-token")
assert one(a, "Secret")["metadata"]["name"] == "bench-a-plumb-token"
annotations = sts["spec"]["template"]["metadata"]["annotations"]
assert annotations.get("prometheus.io/scrape") == "true" and annotations.get("prometheus.io/port") == "8080", annotations
args = job["spec"]["template"]["spec"]["containers"][0]["args"]
assert args[args.index("--drivers") + 1] == "benchmark-framework/loopback.yaml" and args[-1] == "workloads/loopback-smoke.yaml", args
ok("default values: coordinator lists both workers by stable name, token from bench-a-plumb-token, scrape annotations, the image's loopback files")

full = objects("full")
assert not [o for o in full if o["kind"] == "Secret"], "token.existingSecret set, yet the chart made a Secret"
sts, job = check_wiring(full, "full", 4, 9090, "plumb-shared-token")
affinity = sts["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
assert affinity["topologyKey"] == "kubernetes.io/hostname" and affinity["labelSelector"]["matchLabels"]["app.kubernetes.io/instance"] == "full", affinity
assert "prometheus.io/scrape" not in sts["spec"]["template"]["metadata"].get("annotations", {})
args = job["spec"]["template"]["spec"]["containers"][0]["args"]
assert args[args.index("--driver-set") + 1] == "bootstrap.servers=my-kafka-bootstrap.kafka:9092", args
assert args[args.index("--drivers") + 1] == "driver-kafka/kafka.yaml" and args[-1] == "workloads/1-topic-16-partitions-1kb.yaml", args
assert job["spec"]["template"]["spec"]["volumes"][3]["persistentVolumeClaim"]["claimName"] == "plumb-results"
ok("every optional value: 4 workers on port 9090, hard anti-affinity per node, existing Secret, --driver-set, image files, results claim")

own = objects("own-files")
maps = {o["metadata"]["name"]: o["data"] for o in own if o["kind"] == "ConfigMap"}
assert "driverClass: io.plumb.loopback.LoopbackDriver" in maps["own-files-plumb-drivers"]["my-driver.yaml"], maps
assert "name: loopback-smoke" in maps["own-files-plumb-workloads"]["my-workload.yaml"], maps
job = one(own, "Job")
args = job["spec"]["template"]["spec"]["containers"][0]["args"]
assert args[args.index("--drivers") + 1] == "/etc/plumb/drivers/my-driver.yaml" and args[-1] == "/etc/plumb/workloads/my-workload.yaml", args
mounts = {m["name"]: m["mountPath"] for m in job["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]}
assert mounts["drivers"] == "/etc/plumb/drivers" and mounts["workloads"] == "/etc/plumb/workloads", mounts
ok("a driver file and a workload given in values: kept in the ConfigMaps, mounted, run by the coordinator")

token = one(objects("token"), "Secret")["data"]["token"]
assert base64.b64decode(token).decode() == "s3cret-token", token
generated = base64.b64decode(one(a, "Secret")["data"]["token"]).decode()
assert len(generated) == 48 and generated.isalnum(), "the generated token is not 48 random letters and digits"
ok("token.value lands in the Secret; without it a 48-character token is generated")
PY
checks=$((checks + $(grep -c '^ok(' "$0")))

refuse() { # refuse MESSAGE [helm options]: rendering must fail, naming the value in MESSAGE
  local message="$1"
  shift
  if "$helm" template bad "$chart" "$@" >/dev/null 2>"$work/refused.log"; then
    fail "helm template accepted $*"
  fi
  grep -qF -- "$message" "$work/refused.log" || { cat "$work/refused.log" >&2; fail "the error for $* does not say: $message"; }
  pass "refused $*: $message"
}
# values.schema.json: misspelled names, words outside the allowed ones and out-of-range numbers.
refuse "at '/workers': additional properties 'replica' not allowed" --set workers.replica=3
refuse "at '/benchmark': additional properties 'driverSets' not allowed" --set 'benchmark.driverSets={a=b}'
refuse "at '/workers/antiAffinity': value must be one of '', 'soft', 'hard'" --set workers.antiAffinity=always
refuse "at '/benchmark/workerRoles': value must be one of 'split', 'both'" --set benchmark.workerRoles=all
refuse "at '/workers/replicas': minimum" --set workers.replicas=0

echo "$checks passed, 0 failed"
