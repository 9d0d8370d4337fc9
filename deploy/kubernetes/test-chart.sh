#!/usr/bin/env bash
# Checks the Helm chart in deploy/kubernetes/plumb without a cluster:
#   - helm lint --strict, with the default values, with every optional value set and with the
#     credentials example (test/values-*.yaml);
#   - helm template, validated by kubeconform -strict against Kubernetes' own schemas (unknown or
#     misspelled fields are errors) for the oldest and newest Kubernetes versions pinned in tools.sh;
#     the PodMonitor, whose schema (a Prometheus Operator CRD) kubeconform does not have, is
#     skipped there by name and checked field by field below instead;
#   - every pod template passes the restricted Pod Security Standard, judged by the admission
#     plugin's own policy code (psa-check/), and a root, privileged render fails it;
#   - two releases rendered into one namespace share no object name, and each one's selectors
#     match only its own pods;
#   - the coordinator's worker URLs are the StatefulSet pods' stable names, and every pod reads the
#     token from the Secret the chart makes (or the one named in token.existingSecret); rendering
#     twice gives the same manifests, and without a token the render fails saying how to make one;
#   - credentials come from Secrets: the Secrets of extraVolumes and envFrom reach the pods, the
#     token's value appears in its Secret and nowhere else;
#   - the coordinator's Job ends with the run (Java exec'd, no sleep) and is named by revision;
#   - misspelled values and values outside what is allowed fail with an error naming the value
#     (values.schema.json);
#   - the values tables (plumb/README.md, docs/reference/chart-values.md) match values.yaml.
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
psa_check="$("$here/tools.sh" psa-check)"
read -ra kubernetes_versions <<<"$("$here/tools.sh" versions)"
newest="${kubernetes_versions[-1]#v}"
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

# The values tables are generated from values.yaml's comments: a stale one fails here.
if ! /usr/bin/python3 "$here/chart-docs.py" --check >"$work/docs.log" 2>&1; then
  cat "$work/docs.log" >&2
  fail "the values tables are stale: run deploy/kubernetes/chart-docs.py"
fi
pass "plumb/README.md and docs/reference/chart-values.md match values.yaml (deploy/kubernetes/chart-docs.py)"

# The chart states the oldest Kubernetes it is checked against, no other.
grep -qx "kubeVersion: \">=${kubernetes_versions[0]#v}-0\"" "$chart/Chart.yaml" ||
  fail "Chart.yaml's kubeVersion is not \">=${kubernetes_versions[0]#v}-0\", the oldest version tools.sh checks"
pass "Chart.yaml's kubeVersion is >=${kubernetes_versions[0]#v}-0, the oldest Kubernetes checked here"

# The one required value: the token (a Secret of one's own, or the value for the chart's Secret).
token=(--set token.existingSecret=plumb-token)
lint() { # lint DESCRIPTION [helm options]
  local description="$1"
  shift
  "$helm" lint --strict --quiet --kube-version "$newest" "$chart" "$@" >"$work/lint.log" 2>&1 ||
    { cat "$work/lint.log" >&2; fail "helm lint --strict ($description)"; }
  pass "helm lint --strict, $description"
}
lint "default values (and the token)" "${token[@]}"
lint "every optional value set (test/values-full.yaml)" -f "$here/test/values-full.yaml"
lint "credentials from Secrets (test/values-credentials.yaml)" -f "$here/test/values-credentials.yaml"

render() { # render RELEASE OUT [helm options]
  local release="$1" out="$2"
  shift 2
  "$helm" template "$release" "$chart" --namespace "$namespace" --kube-version "$newest" "$@" >"$out" 2>"$work/template.log" ||
    { cat "$work/template.log" >&2; fail "helm template $release $*"; }
}
render bench-a "$work/a.yaml" "${token[@]}"
render bench-b "$work/b.yaml" "${token[@]}"
render full "$work/full.yaml" -f "$here/test/values-full.yaml"
render credentials "$work/credentials.yaml" -f "$here/test/values-credentials.yaml"

schema_location="$schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json"
for version in "${kubernetes_versions[@]}"; do
  for manifest in a full credentials; do
    if ! "$kubeconform" -strict -summary -kubernetes-version "${version#v}" -skip PodMonitor \
      -schema-location "$schema_location" "$work/$manifest.yaml" >"$work/kubeconform.log" 2>&1; then
      cat "$work/kubeconform.log" >&2
      fail "kubeconform -strict, Kubernetes $version, $manifest values"
    fi
    # Only PodMonitors may be skipped (checked below); any other skip or error fails.
    podmonitors="$(grep -c '^kind: PodMonitor$' "$work/$manifest.yaml" || true)"
    grep -q "Invalid: 0, Errors: 0, Skipped: $podmonitors\$" "$work/kubeconform.log" ||
      { cat "$work/kubeconform.log" >&2; fail "kubeconform skipped or failed a resource (expected to skip $podmonitors PodMonitor)"; }
    pass "kubeconform -strict, Kubernetes $version, $([[ $manifest == a ]] && echo default || echo "$manifest") values: $(sed -n 's/^Summary: //p' "$work/kubeconform.log")"
  done
done

# The schema check itself must catch a misspelled field, or the passes above prove nothing.
sed 's/^  clusterIP: None$/  clusterIp: None/' "$work/a.yaml" >"$work/misspelled.yaml"
if "$kubeconform" -strict -kubernetes-version "${kubernetes_versions[0]#v}" -schema-location "$schema_location" \
  "$work/misspelled.yaml" >"$work/kubeconform.log" 2>&1; then
  fail "kubeconform -strict accepted a Service with 'clusterIp' (misspelled clusterIP)"
fi
grep -q "additional properties 'clusterIp' not allowed" "$work/kubeconform.log" || { cat "$work/kubeconform.log" >&2; fail "kubeconform's error does not name clusterIp"; }
pass "kubeconform -strict rejects a misspelled field (clusterIp)"

# The restricted Pod Security Standard, by k8s.io/pod-security-admission's own checks.
for manifest in a full credentials; do
  "$psa_check" "$work/$manifest.yaml" >"$work/psa.log" 2>&1 || { cat "$work/psa.log" >&2; fail "restricted Pod Security Standard, $manifest values"; }
  pass "restricted Pod Security Standard (pod-security-admission), $([[ $manifest == a ]] && echo default || echo "$manifest") values: $(grep -c ': restricted: ok$' "$work/psa.log") pod templates"
done
# ... and the check must be able to fail: a root pod with a privileged container.
render root "$work/root.yaml" "${token[@]}" --set podSecurityContext.runAsUser=0 --set securityContext.privileged=true
if "$psa_check" "$work/root.yaml" >"$work/psa.log" 2>&1; then
  cat "$work/psa.log" >&2
  fail "psa-check passed a pod running as root with a privileged container"
fi
grep -q 'StatefulSet/root-plumb-worker: violates restricted: privileged' "$work/psa.log" &&
  grep -q 'Job/root-plumb-coordinator-1: violates restricted: runAsUser=0' "$work/psa.log" ||
  { cat "$work/psa.log" >&2; fail "psa-check did not name the privileged container and runAsUser=0"; }
pass "psa-check refuses runAsUser=0 and a privileged container: $(grep -c ': violates restricted: ' "$work/psa.log") violations"

render bench-token "$work/token.yaml" --set token.value=s3cret-token
render existing-account "$work/existing-account.yaml" "${token[@]}" --set serviceAccount.create=false --set serviceAccount.name=bench-runner
render own-files "$work/own-files.yaml" "${token[@]}" \
  --set-file 'benchmark.drivers.my-driver\.yaml'="$here/../../benchmark-framework/loopback.yaml" \
  --set-file 'benchmark.workloads.my-workload\.yaml'="$here/../../workloads/loopback-smoke.yaml"

# Stable across renders (helm template, Argo CD, helm diff): nothing random, with either way of
# giving the token.
render bench-a "$work/a-again.yaml" "${token[@]}"
render bench-token "$work/token-again.yaml" --set token.value=s3cret-token
cmp -s "$work/a.yaml" "$work/a-again.yaml" && cmp -s "$work/token.yaml" "$work/token-again.yaml" ||
  fail "two renders with the same values differ: $(diff "$work/token.yaml" "$work/token-again.yaml" | head -5)"
pass "rendering twice gives identical manifests (token.existingSecret and token.value)"

/usr/bin/python3 - "$work" "$namespace" "$chart" "$here/../container/plumb-entrypoint" "$here/../../bin/benchmark" <<'PY' || fail "rendered objects (above)"
import base64, re, sys, yaml

work, namespace, chart, entrypoint, launcher = sys.argv[1:6]

def objects(name):
    with open(f"{work}/{name}.yaml") as f:
        return [o for o in yaml.safe_load_all(f) if o]

def one(objs, kind):
    found = [o for o in objs if o["kind"] == kind]
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]

def ok(message):
    print(f"chart: ok: {message}")

def pod(obj):
    return obj["spec"]["template"]["spec"]

def container(obj, name):
    return next(c for c in pod(obj)["containers"] if c["name"] == name)

a, b = objects("a"), objects("b")
names_a = {o["metadata"]["name"] for o in a}
names_b = {o["metadata"]["name"] for o in b}
common = names_a & names_b
assert not common, f"releases bench-a and bench-b in one namespace share names: {sorted(common)}"
ok(f"two releases in one namespace: {len(names_a)} + {len(names_b)} objects, no name in common")

def pod_labels(objs):
    return [o["spec"]["template"]["metadata"]["labels"] for o in objs if o["kind"] in ("StatefulSet", "Job")]

for mine, theirs, release in ((a, b, "bench-a"), (b, a, "bench-b")):
    selectors = [one(mine, "Service")["spec"]["selector"],
                 one(mine, "StatefulSet")["spec"]["selector"]["matchLabels"]]
    for selector in selectors:
        assert any(selector.items() <= l.items() for l in pod_labels(mine)), f"{release}: a selector matches none of its own pods: {selector}"
        assert not any(selector.items() <= l.items() for l in pod_labels(theirs)), f"{release}: a selector matches the other release's pods: {selector}"
ok("each release's Service and StatefulSet select only its own workers")

def check_wiring(objs, release, replicas, port, secret, scheme="http"):
    sts, svc, job = one(objs, "StatefulSet"), one(objs, "Service"), one(objs, "Job")
    assert sts["spec"]["serviceName"] == svc["metadata"]["name"], "the StatefulSet's serviceName is not the headless Service"
    assert svc["spec"]["clusterIP"] == "None", "the workers' Service is not headless"
    assert sts["spec"]["replicas"] == replicas
    expected = ",".join(f"{scheme}://{sts['metadata']['name']}-{i}.{svc['metadata']['name']}.{namespace}.svc:{port}" for i in range(replicas))
    args = container(job, "coordinator")["args"]
    assert args[args.index("--workers") + 1] == expected, f"coordinator --workers {args[args.index('--workers') + 1]}, expected {expected}"
    init_env = {e["name"]: e["value"] for e in pod(job)["initContainers"][0]["env"]}
    assert init_env["PLUMB_WORKERS"] == expected, "the wait-for-workers container waits for other workers"
    for obj in (sts, job):
        volumes = {v["name"]: v for v in pod(obj)["volumes"]}
        assert volumes["token"]["secret"]["secretName"] == secret, f"{obj['kind']} reads the token from {volumes['token']['secret']['secretName']}, not {secret}"
        assert pod(obj)["automountServiceAccountToken"] is False, f"{obj['kind']} mounts an API token"
    assert job["spec"]["backoffLimit"] == 0
    # The Job ends with the run: the image's entry point, which execs bin/benchmark, which execs
    # Java (PID 1, so SIGTERM reaches it); no shell around it, no sleep after it.
    coordinator = container(job, "coordinator")
    argv = coordinator["command"] + coordinator["args"]
    assert coordinator["command"] == ["/usr/local/bin/plumb-entrypoint", "coordinator"], coordinator["command"]
    assert not any(re.search(r"\bsleep\b|\bbash\b|(^|/)sh$", a) for a in argv), f"a shell or a sleep in the coordinator's command: {argv}"
    assert job["metadata"]["name"] == f"{sts['metadata']['name'][:-len('-worker')]}-coordinator-1", job["metadata"]["name"]
    return sts, job

def secret_names(objs):
    return {o["metadata"]["name"] for o in objs if o["kind"] == "Secret"}

sts, job = check_wiring(a, "bench-a", 2, 8080, "plumb-token")
assert not secret_names(a), "token.existingSecret set, yet the chart made a Secret"
assert one(a, "ServiceAccount")["metadata"]["name"] == "bench-a-plumb" == pod(sts)["serviceAccountName"] == pod(job)["serviceAccountName"]
assert one(a, "ServiceAccount")["automountServiceAccountToken"] is False
assert not [o for o in a if o["kind"] in ("PodMonitor", "PersistentVolumeClaim")], "Prometheus or a claim made by default"
assert {v["name"]: v for v in pod(job)["volumes"]}["results"] == {"name": "results", "emptyDir": {}}
args = container(job, "coordinator")["args"]
assert args[args.index("--drivers") + 1] == "benchmark-framework/loopback.yaml" and args[-1] == "workloads/loopback-smoke.yaml", args
ok("default values: coordinator lists both workers by stable name, token from plumb-token, own ServiceAccount without API token, no PodMonitor, the image's loopback files")

# The Job's name carries the revision (helm template always renders revision 1: the template is
# checked too), so helm upgrade starts a new run.
assert "-coordinator-{{ .Release.Revision }}" in open(f"{chart}/templates/job.yaml").read()
entry = open(entrypoint).read()
assert re.search(r"benchmark \| coordinator\)\s+shift\s+exec /opt/plumb/bin/benchmark \"\$@\"", entry), "plumb-entrypoint does not exec bin/benchmark"
assert re.search(r"^exec java ", open(launcher).read(), re.M), "bin/benchmark does not exec java"
ok("the Job is <fullname>-coordinator-<revision>; its command is plumb-entrypoint coordinator, which execs bin/benchmark, which execs Java: no shell, no sleep")

full = objects("full")
assert not secret_names(full), "token.existingSecret set, yet the chart made a Secret"
sts, job = check_wiring(full, "full", 4, 9090, "plumb-shared-token", scheme="https")
spec = pod(sts)
affinity = spec["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
assert affinity["topologyKey"] == "kubernetes.io/hostname" and affinity["labelSelector"]["matchLabels"]["app.kubernetes.io/instance"] == "full", affinity
for obj in (sts, job):
    assert pod(obj)["priorityClassName"] == "benchmark" and pod(obj)["serviceAccountName"] == "plumb-bench", obj["kind"]
    assert obj["spec"]["template"]["metadata"]["annotations"]["example.com/team"] == "bench", obj["kind"]
    assert pod(obj)["tolerations"][0]["key"] == "load" and pod(obj)["nodeSelector"] == {"node-role/load": "true"}, obj["kind"]
assert "nodeAffinity" in pod(job)["affinity"]
worker = container(sts, "worker")
wargs = worker["args"]
assert wargs[wargs.index("--tls-keystore") + 1] == "/etc/plumb/tls/worker.p12" and wargs[wargs.index("--tls-keystore-password-file") + 1] == "/etc/plumb/tls/worker.pass", wargs
tls = {v["name"]: v for v in spec["volumes"]}["tls"]["secret"]
assert tls["secretName"] == "plumb-worker-tls" and [i["key"] for i in tls["items"]] == ["worker.p12", "worker.pass"], tls
args = container(job, "coordinator")["args"]
assert args[args.index("--tls-truststore") + 1] == "/etc/plumb/tls/trust.p12" and args[args.index("--tls-truststore-password-file") + 1] == "/etc/plumb/tls/trust.pass", args
tls = {v["name"]: v for v in pod(job)["volumes"]}["tls"]["secret"]
assert [i["key"] for i in tls["items"]] == ["trust.p12", "trust.pass"], f"the coordinator gets more than the truststore: {tls}"
assert args[args.index("--driver-set") + 1] == "bootstrap.servers=my-kafka-bootstrap.kafka:9092", args
assert args[args.index("--drivers") + 1] == "driver-kafka/kafka.yaml" and args[-1] == "workloads/1-topic-16-partitions-1kb.yaml", args
claim = one(full, "PersistentVolumeClaim")
assert claim["metadata"]["name"] == "full-plumb-results" and claim["spec"]["storageClassName"] == "fast-ssd", claim
assert {v["name"]: v for v in pod(job)["volumes"]}["results"]["persistentVolumeClaim"]["claimName"] == "full-plumb-results"
ok("every optional value: 4 workers on port 9090 over TLS (keystore to the workers, truststore alone to the coordinator), hard anti-affinity, scheduling values, existing Secret, --driver-set, image files, a results claim")

# The PodMonitor: kubeconform has no schema for it (a CRD), so its fields are checked here against
# the Prometheus Operator's monitoring.coreos.com/v1 PodMonitor: known fields only, and wired to
# the workers' named port and to the token Secret.
monitor = one(full, "PodMonitor")
assert monitor["apiVersion"] == "monitoring.coreos.com/v1", monitor["apiVersion"]
assert set(monitor) == {"apiVersion", "kind", "metadata", "spec"} and set(monitor["metadata"]) <= {"name", "labels"}, monitor
assert set(monitor["spec"]) == {"selector", "podMetricsEndpoints"}, monitor["spec"]
assert monitor["metadata"]["labels"]["release"] == "kube-prometheus-stack"
selector = monitor["spec"]["selector"]["matchLabels"]
assert selector.items() <= sts["spec"]["template"]["metadata"]["labels"].items(), "the PodMonitor does not select the workers"
assert not selector.items() <= job["spec"]["template"]["metadata"]["labels"].items(), "the PodMonitor selects the coordinator"
[endpoint] = monitor["spec"]["podMetricsEndpoints"]
assert set(endpoint) <= {"port", "path", "scheme", "interval", "authorization", "tlsConfig"}, endpoint
assert endpoint["port"] in [p["name"] for p in worker["ports"]] and endpoint["path"] == "/metrics" and endpoint["scheme"] == "https", endpoint
assert re.fullmatch(r"([0-9]+(ms|s|m|h))+", endpoint["interval"]), endpoint["interval"]
assert endpoint["authorization"] == {"type": "Bearer", "credentials": {"name": "plumb-shared-token", "key": "token"}}, endpoint["authorization"]
assert set(endpoint["tlsConfig"]) <= {"ca", "cert", "keySecret", "serverName", "insecureSkipVerify"}, endpoint["tlsConfig"]
ok("PodMonitor (fields checked here, not by kubeconform): monitoring.coreos.com/v1, selects the workers only, port control, /metrics over https, bearer token from the token Secret")

# Credentials from Secrets: the values' Secrets reach the pods that need them, through volumes
# and envFrom; the token (a marker) is in its Secret alone, in no ConfigMap, argument or variable.
cred = objects("credentials")
sts, job = check_wiring(cred, "credentials", 2, 8080, "credentials-plumb-token")
mounts = {m["name"]: m for m in container(job, "coordinator")["volumeMounts"]}
volumes = {v["name"]: v for v in pod(job)["volumes"]}
assert volumes["kafka-driver"]["secret"]["secretName"] == "kafka-scram-driver" and mounts["kafka-driver"]["mountPath"] == "/etc/plumb/secret-drivers", (volumes, mounts)
args = container(job, "coordinator")["args"]
assert args[args.index("--drivers") + 1] == "/etc/plumb/secret-drivers/kafka-scram.yaml", args
assert container(job, "coordinator")["envFrom"] == [{"secretRef": {"name": "broker-env"}}]
worker = container(sts, "worker")
mounts = {m["name"]: m for m in worker["volumeMounts"]}
volumes = {v["name"]: v for v in pod(sts)["volumes"]}
assert volumes["broker-tls"]["secret"]["secretName"] == "broker-tls" and mounts["broker-tls"]["mountPath"] == "/etc/plumb/broker-tls" and mounts["broker-tls"]["readOnly"], (volumes, mounts)
assert worker["envFrom"] == [{"secretRef": {"name": "broker-env"}}]
password = next(e for e in worker["env"] if e["name"] == "KAFKA_CLIENT_PASSWORD")
assert password == {"name": "KAFKA_CLIENT_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "kafka-user", "key": "password"}}}, password
assert "affinity" in pod(sts) and "zone" in str(pod(sts)["affinity"]), "workers.affinity is not the pods' affinity"
assert {v["name"]: v for v in pod(job)["volumes"]}["results"]["persistentVolumeClaim"]["claimName"] == "plumb-results"
assert not [o for o in cred if o["kind"] == "PersistentVolumeClaim"], "persistence.existingClaim set, yet the chart made a claim"
marker = "marker-token-4f1d0c9e"
encoded = base64.b64encode(marker.encode()).decode()
text = open(f"{work}/credentials.yaml").read()
assert marker not in text, "the token's value appears in the manifests in clear"
holders = [f"{o['kind']}/{o['metadata']['name']}" for o in cred if encoded in yaml.safe_dump(o)]
assert holders == ["Secret/credentials-plumb-token"], f"the token's value is in {holders}, not in its Secret alone"
for o in cred:
    if o["kind"] == "ConfigMap":
        assert marker not in str(o.get("data")) and encoded not in str(o.get("data")), o["metadata"]["name"]
for obj in (sts, job):
    for c in pod(obj)["containers"] + pod(obj).get("initContainers", []):
        literal = [e["name"] for e in c.get("env", []) if "value" in e and e["name"] not in ("PLUMB_JAVA_OPTS", "PLUMB_WORKERS")]
        assert not literal, f"{obj['kind']} {c['name']}: variables with literal values: {literal}"
ok("credentials: a driver file from a Secret mounted in the coordinator and named by --drivers, the broker's CA from a Secret in the workers, envFrom and secretKeyRef on both; the token in its Secret only, in no ConfigMap, argument or variable")

existing = objects("existing-account")
assert not [o for o in existing if o["kind"] == "ServiceAccount"], "serviceAccount.create=false, yet the chart made one"
for kind in ("StatefulSet", "Job"):
    assert pod(one(existing, kind))["serviceAccountName"] == "bench-runner" and pod(one(existing, kind))["automountServiceAccountToken"] is False, kind
ok("serviceAccount.create=false: no ServiceAccount made, the pods run as serviceAccount.name, still without an API token")

own = objects("own-files")
maps = {o["metadata"]["name"]: o["data"] for o in own if o["kind"] == "ConfigMap"}
assert "driverClass: io.plumb.loopback.LoopbackDriver" in maps["own-files-plumb-drivers"]["my-driver.yaml"], maps
assert "name: loopback-smoke" in maps["own-files-plumb-workloads"]["my-workload.yaml"], maps
job = one(own, "Job")
args = container(job, "coordinator")["args"]
assert args[args.index("--drivers") + 1] == "/etc/plumb/drivers/my-driver.yaml" and args[-1] == "/etc/plumb/workloads/my-workload.yaml", args
mounts = {m["name"]: m["mountPath"] for m in container(job, "coordinator")["volumeMounts"]}
assert mounts["drivers"] == "/etc/plumb/drivers" and mounts["workloads"] == "/etc/plumb/workloads", mounts
ok("a driver file and a workload given in values: kept in the ConfigMaps, mounted, run by the coordinator")

token = objects("token")
assert base64.b64decode(one(token, "Secret")["data"]["token"]).decode() == "s3cret-token"
check_wiring(token, "bench-token", 2, 8080, "bench-token-plumb-token")
ok("token.value lands in the chart's Secret, which every pod reads")
PY
checks=$((checks + $(grep -c '^ok(' "$0")))

refuse() { # refuse MESSAGE [helm options]: rendering must fail, naming the value in MESSAGE
  local message="$1"
  shift
  if "$helm" template bad "$chart" --kube-version "$newest" "$@" >/dev/null 2>"$work/refused.log"; then
    fail "helm template accepted $*"
  fi
  grep -qF -- "$message" "$work/refused.log" || { cat "$work/refused.log" >&2; fail "the error for $* does not say: $message"; }
  pass "refused ${*:-(no value set)}: $message"
}
# No token: the render stops, naming both values and how to make a Secret.
refuse 'token: set token.existingSecret to a Secret with the key "token" (make one: kubectl create secret generic plumb-token --from-literal=token=$(openssl rand -hex 32)), or set token.value'
refuse "chart requires kubeVersion: >=1.30.0-0 which is incompatible with Kubernetes v1.29.0" "${token[@]}" --kube-version 1.29.0
# values.schema.json: misspelled names, words outside the allowed ones and out-of-range numbers.
refuse "at '/workers': additional properties 'replica' not allowed" "${token[@]}" --set workers.replica=3
refuse "at '/benchmark': additional properties 'driverSets' not allowed" "${token[@]}" --set 'benchmark.driverSets={a=b}'
refuse "at '/coordinator': additional properties 'keepResultsSeconds' not allowed" "${token[@]}" --set coordinator.keepResultsSeconds=3600
refuse "at '/workers/tls': additional properties 'secret' not allowed" "${token[@]}" --set workers.tls.secret=x
refuse "at '/serviceAccount': additional properties 'automount' not allowed" "${token[@]}" --set serviceAccount.automount=true
refuse "at '/workers/antiAffinity': value must be one of '', 'soft', 'hard'" "${token[@]}" --set workers.antiAffinity=always
refuse "at '/benchmark/workerRoles': value must be one of 'split', 'both'" "${token[@]}" --set benchmark.workerRoles=all
refuse "at '/workers/replicas': minimum" "${token[@]}" --set workers.replicas=0
refuse "at '/persistence/create': got string, want boolean" "${token[@]}" --set-string persistence.create=yes
# Values that contradict each other.
refuse "workers: set workers.antiAffinity or workers.affinity, not both" "${token[@]}" --set workers.antiAffinity=hard \
  --set-json 'workers.affinity={"podAffinity":{}}'
refuse "persistence: set persistence.create or persistence.existingClaim, not both" "${token[@]}" \
  --set persistence.create=true --set persistence.existingClaim=mine

echo "$checks passed, 0 failed"
