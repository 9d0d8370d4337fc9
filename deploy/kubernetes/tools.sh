#!/usr/bin/env bash
# The pinned tools that check the Helm chart, built or fetched once and cached; prints the path.
#
#   deploy/kubernetes/tools.sh helm          Helm, built with `go install` from the Go module proxy
#   deploy/kubernetes/tools.sh kubeconform   kubeconform, built the same way
#   deploy/kubernetes/tools.sh schemas       Kubernetes' JSON schemas (strict: unknown fields are
#                                            errors), from the PyPI package kubernetes-validate
#   deploy/kubernetes/tools.sh psa-check     psa-check/ (the restricted Pod Security Standard's own
#                                            policy code, k8s.io/pod-security-admission, pinned in
#                                            psa-check/go.mod and go.sum), built with go build
#
# kubeconform would download schemas from GitHub, which hosts behind firewalls (and CI here) cannot
# reach; the wheel on PyPI ships the same schemas, generated from Kubernetes' OpenAPI documents.
# Cache: ${PLUMB_CACHE_DIR:-~/.cache/plumb}/kubernetes; a changed pin builds into a new directory.
set -euo pipefail

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
SCHEMAS_PACKAGE=kubernetes-validate
SCHEMAS_VERSION=1.37.0
SCHEMAS_WHEEL_SHA256=85136d018a27b50ec7fc049d902bfa5193f5976807e6c0f408e3ab6fe078cad9
# The Kubernetes versions the chart is checked against: the oldest the chart supports (its
# Chart.yaml's kubeVersion, >=1.30.0-0, must match the first) and the newest the schema package has.
SCHEMA_KUBERNETES_VERSIONS=(v1.30.0 v1.37.0)

cache="${PLUMB_CACHE_DIR:-$HOME/.cache/plumb}/kubernetes"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() {
  echo "tools.sh: $*" >&2
  exit 1
}

go_command() {
  local go
  go="$(command -v go || echo /usr/local/go/bin/go)"
  [[ -x "$go" ]] || die "Go is needed to build $1 (https://go.dev/dl, or Debian's golang-go)"
  echo "$go"
}

# go install into the cache, with a module and build cache of its own that is deleted afterwards
# (over a gigabyte for Helm): only the stripped binary stays.
go_tool() {
  local name="$1" module="$2" version="$3"
  local dir="$cache/$name-$version"
  if [[ ! -x "$dir/$name" ]]; then
    local go
    go="$(go_command "$name $version")"
    echo "building $name $version with go install (once; cached in $dir)" >&2
    local work started=$SECONDS
    work="$(mktemp -d "$cache/.build-XXXXXX")"
    if ! GOBIN="$work/bin" GOMODCACHE="$work/mod" GOCACHE="$work/cache" GOFLAGS=-modcacherw \
      GOTOOLCHAIN=local CGO_ENABLED=0 \
      "$go" install -trimpath -ldflags="-s -w" "$module@$version" >"$work/log" 2>&1; then
      tail -20 "$work/log" >&2
      rm -rf "$work"
      die "go install $module@$version failed"
    fi
    mkdir -p "$dir"
    mv "$work/bin/$name" "$dir/$name"
    rm -rf "$work"
    echo "built $name $version in $((SECONDS - started)) s" >&2
  fi
  echo "$dir/$name"
}

# Builds psa-check/ the same way, from its own go.mod and go.sum (-mod=readonly: the pinned
# versions, checked against go.sum, or nothing); the cache directory is named by a hash of the
# sources, so an edit or a new pin builds anew.
psa_check() {
  local source="$here/psa-check"
  local hash
  hash="$(cat "$source/go.mod" "$source/go.sum" "$source"/*.go | sha256sum | cut -c1-12)"
  local dir="$cache/psa-check-$hash"
  if [[ ! -x "$dir/psa-check" ]]; then
    local go
    go="$(go_command psa-check)"
    echo "building psa-check ($(psa_version)) with go build (once; cached in $dir)" >&2
    local work started=$SECONDS
    work="$(mktemp -d "$cache/.build-XXXXXX")"
    if ! (cd "$source" && GOMODCACHE="$work/mod" GOCACHE="$work/cache" GOFLAGS="-modcacherw -mod=readonly" \
      GOTOOLCHAIN=local CGO_ENABLED=0 \
      "$go" build -trimpath -ldflags="-s -w" -o "$work/psa-check" . >"$work/log" 2>&1); then
      tail -20 "$work/log" >&2
      rm -rf "$work"
      die "go build of psa-check failed"
    fi
    mkdir -p "$dir"
    mv "$work/psa-check" "$dir/psa-check"
    rm -rf "$work"
    echo "built psa-check in $((SECONDS - started)) s" >&2
  fi
  echo "$dir/psa-check"
}

psa_version() {
  awk '$1 == "k8s.io/pod-security-admission" { print $1 " " $2 }' "$here/psa-check/go.mod"
}

# Unpacks the strict schemas of the pinned Kubernetes versions, in kubeconform's layout
# (<version>-local-strict/<kind>-<group>-<version>.json). Each schema names itself with an
# https://kubernetes.io/... $id and refers to its shared definitions by /api/_definitions.json,
# which a validator resolves against that $id, that is, on the network. Without the $id and with
# a relative reference they resolve to the file beside it.
schemas() {
  local dir="$cache/schemas-$SCHEMAS_PACKAGE-$SCHEMAS_VERSION"
  if [[ ! -f "$dir/complete" ]]; then
    echo "fetching $SCHEMAS_PACKAGE $SCHEMAS_VERSION from PyPI (once; cached in $dir)" >&2
    local work
    work="$(mktemp -d "$cache/.schemas-XXXXXX")"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" \
      "$SCHEMAS_PACKAGE==$SCHEMAS_VERSION" >&2 || { rm -rf "$work"; die "pip download $SCHEMAS_PACKAGE==$SCHEMAS_VERSION failed"; }
    local wheel=("$work"/*.whl)
    if [[ "$(sha256sum "${wheel[0]}" | cut -d' ' -f1)" != "$SCHEMAS_WHEEL_SHA256" ]]; then
      rm -rf "$work"
      die "$SCHEMAS_PACKAGE $SCHEMAS_VERSION: the wheel's SHA-256 is not the pinned one"
    fi
    rm -rf "$dir"
    python3 - "${wheel[0]}" "$dir" "${SCHEMA_KUBERNETES_VERSIONS[@]}" <<'PY'
import json, pathlib, sys, zipfile

wheel, target, versions = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3:]
prefixes = [f"kubernetes_validate/kubernetes-json-schema/{v}-local-strict/" for v in versions]
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        prefix = next((p for p in prefixes if name.startswith(p)), None)
        if prefix is None or name.endswith("/"):
            continue
        out = target / prefix.split("/")[-2] / name[len(prefix):]
        out.parent.mkdir(parents=True, exist_ok=True)
        schema = json.loads(archive.read(name))
        schema.pop("$id", None)
        text = json.dumps(schema, separators=(",", ":"))
        out.write_text(text.replace('"/api/_definitions.json#', '"_definitions.json#'))
for v in versions:
    if not (target / f"{v}-local-strict" / "_definitions.json").is_file():
        sys.exit(f"tools.sh: the wheel has no strict schemas for Kubernetes {v}")
PY
    rm -rf "$work"
    touch "$dir/complete"
  fi
  echo "$dir"
}

mkdir -p "$cache"
case "${1:-}" in
  helm) go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION" ;;
  kubeconform) go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION" ;;
  schemas) schemas ;;
  psa-check) psa_check ;;
  versions) echo "${SCHEMA_KUBERNETES_VERSIONS[*]}" ;;
  pins) echo "helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION, $SCHEMAS_PACKAGE $SCHEMAS_VERSION, $(psa_version)" ;;
  *) die "usage: tools.sh helm|kubeconform|schemas|psa-check|versions|pins" ;;
esac
