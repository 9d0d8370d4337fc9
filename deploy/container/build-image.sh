#!/usr/bin/env bash
# Builds the container image plumb:<version> (the project version) from Debian packages only (no
# registry needed): a Debian bookworm root file system made by mmdebstrap with the Java 17
# runtime, then the release archive (deploy/archive) unpacked into /opt/plumb with buildah. Runs
# a worker by default and the coordinator when asked (see plumb-entrypoint), as user plumb (10001).
#
#   deploy/container/build-image.sh [--archive FILE] [--tag NAME] [--containerfile [--base IMAGE]]
#
#   --archive FILE   the release archive plumb-<version>.tar.gz; its name gives the version.
#                    Default deploy/archive/target/plumb-<the root pom's version>.tar.gz, built
#                    with mvn package when missing.
#   --tag NAME       default plumb:<version> (localhost/plumb:<version>)
#   --containerfile  build through deploy/container/Containerfile (buildah build) instead: the
#                    same image, made the way podman or docker build would make it
#   --base IMAGE     with --containerfile: the Containerfile's BASE, e.g.
#                    docker.io/library/eclipse-temurin:17-jre (pulled if missing). Default: the
#                    Debian base this script builds, localhost/plumb-base:<hash>
#
# Needs root, mmdebstrap, buildah and podman (deploy/local/install-debian-packages.sh installs
# them); --containerfile with --base needs only buildah and podman, and no root where rootless
# buildah works (subordinate IDs in /etc/subuid and /etc/subgid). Fast when nothing changed: the
# base image (plumb-base:<hash of its recipe>) is built once and kept in podman's storage, and the
# image is rebuilt only when the archive, the base or this recipe differs from the image's labels
# (then a few seconds).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
archive=""
tag=""
containerfile=false
base_option=""
while (($# > 0)); do
  case "$1" in
    --archive) archive="${2:?--archive needs a file}"; shift 2 ;;
    --tag) tag="${2:?--tag needs a name}"; shift 2 ;;
    --containerfile) containerfile=true; shift ;;
    --base) base_option="${2:?--base needs an image}"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "error: unknown argument '$1' (allowed: --archive FILE, --tag NAME, --containerfile, --base IMAGE)" >&2; exit 2 ;;
  esac
done
if [[ -n "$base_option" ]] && ! $containerfile; then
  echo "error: --base goes with --containerfile (the default build always uses the Debian base)" >&2
  exit 2
fi
tools=(buildah podman)
[[ -n "$base_option" ]] || tools+=(mmdebstrap)
for tool in "${tools[@]}"; do
  command -v "$tool" >/dev/null || {
    echo "error: $tool is not installed: run deploy/local/install-debian-packages.sh" >&2
    exit 2
  }
done

if [[ -z "$archive" ]]; then
  archive="$repo_root/deploy/archive/target/plumb-$(project_version).tar.gz"
  if [[ ! -f "$archive" ]]; then
    echo "== building the release archive"
    (cd "$repo_root" && mvn -B -q package -DskipTests -pl deploy/archive -am)
  fi
fi
[[ -f "$archive" ]] || { echo "error: --archive: no such file: $archive" >&2; exit 2; }
version="$(basename "$archive" .tar.gz)"
version="${version#plumb-}"
[[ "$(basename "$archive")" == "plumb-$version.tar.gz" && -n "$version" ]] ||
  { echo "error: --archive: expected a file named plumb-<version>.tar.gz, got $(basename "$archive")" >&2; exit 2; }
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
base_image="${base_option:-localhost/plumb-base:$base_hash}"

mkdir -p "$cache_dir"
if [[ -z "$base_option" ]] && ! podman image exists "$base_image"; then
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
  # Base images of earlier recipes are not needed any more (podman keeps one still in use), nor
  # their copies without the user plumb that test-round-trip.sh makes.
  for repository in localhost/plumb-test-base-without-user localhost/plumb-base; do
    podman images --format '{{.Repository}}:{{.Tag}}' "$repository" | grep -vxF "$repository:$base_hash" |
      xargs -r podman rmi >/dev/null 2>&1 || true
  done
fi

# The image is up to date when it was built from this archive, on this base, by this recipe (this
# script, the entry point and, with --containerfile, the Containerfile).
archive_hash="$(sha256sum "$archive" | cut -c1-64)"
recipe_files=("${BASH_SOURCE[0]}" "$container_dir/plumb-entrypoint")
if $containerfile; then recipe_files+=("$container_dir/Containerfile"); fi
recipe_hash="$(cat "${recipe_files[@]}" | sha256sum | cut -c1-64)"
if podman image exists "$tag" &&
  [[ "$(podman image inspect --format '{{index .Labels "io.plumb.archive-sha256"}} {{index .Labels "io.plumb.base"}} {{index .Labels "io.plumb.recipe-sha256"}}' "$tag")" == "$archive_hash $base_image $recipe_hash" ]]; then
  echo "== $tag is up to date"
  exit 0
fi
# The labels every image carries (the Containerfile sets the OCI ones itself).
labels=(--label "io.plumb.archive-sha256=$archive_hash" --label "io.plumb.base=$base_image"
  --label "io.plumb.recipe-sha256=$recipe_hash")
previous="$(podman image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)"

scratch="$(mktemp -d)"
container=""
cleanup() {
  rm -rf "$scratch"
  if [[ -n "$container" ]]; then buildah rm "$container" >/dev/null || true; fi
}
trap cleanup EXIT

if $containerfile; then
  echo "== building $tag from $(basename "$archive") with the Containerfile on $base_image"
  # A context of just what the Containerfile reads, laid out as in the repository (the root of
  # the source tree would do, but holds far more).
  mkdir -p "$scratch/deploy/archive/target" "$scratch/deploy/container"
  ln "$archive" "$scratch/deploy/archive/target/plumb-$version.tar.gz" 2>/dev/null ||
    cp "$archive" "$scratch/deploy/archive/target/plumb-$version.tar.gz"
  cp "$container_dir/plumb-entrypoint" "$scratch/deploy/container/"
  pull=()
  if [[ "$base_image" == localhost/* ]]; then pull=(--pull-never); fi
  # runc and the ulimits for the RUN step, as podman_run (common.sh); the RUN step needs no
  # network.
  buildah build --quiet --runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1000:1000 \
    --network none "${pull[@]}" -f "$container_dir/Containerfile" \
    --build-arg "BASE=$base_image" --build-arg "VERSION=$version" "${labels[@]}" \
    --tag "$tag" "$scratch" >/dev/null
else
  echo "== building $tag from $(basename "$archive")"
  mkdir "$scratch/plumb" "$scratch/owned"
  tar -xzf "$archive" -C "$scratch/plumb" --strip-components=1
  container="$(buildah from --pull-never "$base_image")"
  buildah copy --quiet "$container" "$scratch/plumb" /opt/plumb >/dev/null
  buildah copy --quiet --chmod 0755 "$container" "$container_dir/plumb-entrypoint" /usr/local/bin/plumb-entrypoint >/dev/null
  # plumb's home and /results (where the Helm chart mounts the results volume) are plumb's, as
  # in the Containerfile's image; /opt/plumb stays root's.
  for dir in /home/plumb /results; do
    buildah copy --quiet --chown 10001:10001 "$container" "$scratch/owned" "$dir" >/dev/null
  done
  buildah config \
    --entrypoint '["/usr/local/bin/plumb-entrypoint"]' --cmd '[]' \
    --user 10001:10001 --workingdir /opt/plumb --port 8080 \
    --env PLUMB_HOME=/opt/plumb --env HOME=/home/plumb \
    "${labels[@]}" \
    --label "org.opencontainers.image.title=Plumb" \
    --label "org.opencontainers.image.description=Plumb, a benchmark for message brokers: a worker by default, the coordinator with 'benchmark ...'" \
    --label "org.opencontainers.image.version=$version" \
    --label "org.opencontainers.image.licenses=Apache-2.0" \
    --label "org.opencontainers.image.base.name=$base_image" \
    "$container"
  buildah commit --quiet --rm "$container" "$tag" >/dev/null
  container=""
fi
# The image this one replaces has no name left: remove it, or every rebuild would keep one.
if [[ -n "$previous" && "$previous" != "$(podman image inspect --format '{{.Id}}' "$tag")" ]]; then
  podman rmi "$previous" >/dev/null 2>&1 || true
fi
echo "== built $tag"
