#!/usr/bin/env bash
# Builds the container image plumb:<version> from Debian packages only (no registry needed): a
# Debian bookworm root file system made by mmdebstrap with the Java 17 runtime, then the release
# archive (deploy/archive) unpacked into /opt/plumb with buildah. Runs a worker by default and
# the coordinator when asked (see plumb-entrypoint).
#
#   deploy/container/build-image.sh [--archive FILE] [--tag NAME]
#
# Needs root, mmdebstrap, buildah and podman (deploy/local/install-debian-packages.sh installs
# them) and the archive (mvn package builds it; this script builds it when it is missing).
# Fast when nothing changed: the base image (plumb-base:<hash of its recipe>) is built once and
# kept in podman's storage, and plumb:<version> is rebuilt only when the archive differs from the
# one in the image (a few seconds).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
archive=""
tag=""
while (($# > 0)); do
  case "$1" in
    --archive) archive="${2:?--archive needs a file}"; shift 2 ;;
    --tag) tag="${2:?--tag needs a name}"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1' (allowed: --archive FILE, --tag NAME)" >&2; exit 2 ;;
  esac
done
for tool in mmdebstrap buildah podman; do
  command -v "$tool" >/dev/null || {
    echo "error: $tool is not installed: run deploy/local/install-debian-packages.sh" >&2
    exit 2
  }
done

if [[ -z "$archive" ]]; then
  shopt -s nullglob
  archives=("$repo_root"/deploy/archive/target/plumb-*.tar.gz)
  shopt -u nullglob
  if ((${#archives[@]} == 0)); then
    echo "== building the release archive"
    (cd "$repo_root" && mvn -B -q package -DskipTests -pl deploy/archive -am)
    archives=("$repo_root"/deploy/archive/target/plumb-*.tar.gz)
  fi
  archive="${archives[0]}"
fi
[[ -f "$archive" ]] || { echo "error: --archive: no such file: $archive" >&2; exit 2; }
version="$(basename "$archive" .tar.gz)"
version="${version#plumb-}"
tag="${tag:-plumb:$version}"

# The base image's recipe: any change to it gives a new hash, hence a new base image.
suite=bookworm
packages=openjdk-17-jre-headless,bash
mirrors=("deb http://deb.debian.org/debian $suite main"
  "deb http://deb.debian.org/debian $suite-updates main"
  "deb http://deb.debian.org/debian-security $suite-security main")
# openjdk's postinst links its man page into man1, so that directory must exist though man pages
# are left out. The user plumb (10001) runs Plumb: the Helm chart's pods run as non-root.
essential_hook='mkdir -p "$1/usr/share/man/man1"'
customize_hook='echo "plumb:x:10001:10001:Plumb:/opt/plumb:/usr/sbin/nologin" >>"$1/etc/passwd" && echo "plumb:x:10001:" >>"$1/etc/group" && rm -rf "$1/var/cache/apt/archives" "$1/var/lib/apt/lists"/* && mkdir -p "$1/var/cache/apt/archives/partial"'
mmdebstrap_options=(--mode=root --format=tar --variant=essential --include="$packages"
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
  --dpkgopt='path-exclude=/usr/share/locale/*'
  --essential-hook="$essential_hook" --customize-hook="$customize_hook")
base_hash="$(printf '%s\n' "${mmdebstrap_options[@]}" "$suite" "${mirrors[@]}" | sha256sum | cut -c1-12)"
base_image="localhost/plumb-base:$base_hash"

mkdir -p "$cache_dir"
if ! podman image exists "$base_image"; then
  echo "== mmdebstrap: Debian $suite with $packages"
  rootfs="$(mktemp /tmp/plumb-rootfs-XXXXXX.tar)"
  mmdebstrap "${mmdebstrap_options[@]}" "$suite" "$rootfs" "${mirrors[@]}" \
    2>"$cache_dir/mmdebstrap.log" || {
    tail -20 "$cache_dir/mmdebstrap.log" >&2
    echo "error: mmdebstrap failed: log in $cache_dir/mmdebstrap.log" >&2
    rm -f "$rootfs"
    exit 1
  }
  echo "== importing the base image $base_image"
  podman import --quiet "$rootfs" "$base_image" >/dev/null
  rm -f "$rootfs"
  # Base images of earlier recipes are not needed any more (podman keeps one still in use).
  podman images --format '{{.Repository}}:{{.Tag}}' localhost/plumb-base | grep -vxF "$base_image" |
    xargs -r podman rmi >/dev/null 2>&1 || true
fi

archive_hash="$(sha256sum "$archive" | cut -c1-64)"
if podman image exists "$tag" &&
  [[ "$(podman image inspect --format '{{index .Labels "io.plumb.archive-sha256"}} {{index .Labels "io.plumb.base"}}' "$tag")" == "$archive_hash $base_image" ]]; then
  echo "== $tag is up to date"
  exit 0
fi

echo "== building $tag from $(basename "$archive")"
unpacked="$(mktemp -d)"
container=""
cleanup() {
  rm -rf "$unpacked"
  if [[ -n "$container" ]]; then buildah rm "$container" >/dev/null || true; fi
}
trap cleanup EXIT
tar -xzf "$archive" -C "$unpacked" --strip-components=1
container="$(buildah from --pull-never "$base_image")"
buildah copy --quiet "$container" "$unpacked" /opt/plumb >/dev/null
buildah copy --quiet --chmod 0755 "$container" "$container_dir/plumb-entrypoint" /usr/local/bin/plumb-entrypoint >/dev/null
buildah config \
  --entrypoint '["/usr/local/bin/plumb-entrypoint"]' --cmd '[]' \
  --user 10001:10001 --workingdir /opt/plumb --port 8080 \
  --env PLUMB_HOME=/opt/plumb \
  --label "io.plumb.archive-sha256=$archive_hash" --label "io.plumb.base=$base_image" \
  --label "org.opencontainers.image.version=$version" \
  "$container"
previous="$(podman image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)"
buildah commit --quiet --rm "$container" "$tag" >/dev/null
container=""
# The image this one replaces has no name left: remove it, or every rebuild would keep one.
if [[ -n "$previous" ]]; then podman rmi "$previous" >/dev/null 2>&1 || true; fi
echo "== built $tag"
