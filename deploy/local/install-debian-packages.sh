#!/usr/bin/env bash
# Installs the Debian-packaged brokers and tools that deploy/local uses, and the headless Chromium
# the report's browser test opens reports in, when missing. Idempotent and quiet: does nothing (not
# even `apt-get update`) when everything is already installed. nftables cuts a node off the
# network for the isolate and partition faults. mmdebstrap, buildah, podman and runc build and run
# the container image (deploy/container) without any registry; python3-yaml reads the Helm chart's
# rendered objects in its test. NATS is not among them: Debian's nats-server is 2.9.10, without the
# sync_interval setting, so deploy/local/nats.sh builds a pinned, current one with Go instead.
set -euo pipefail

packages=(redis-server redis-tools rabbitmq-server iproute2 nftables chromium
  mmdebstrap buildah podman runc python3-yaml faketime)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo_cmd=()
if [[ "$(id -u)" != 0 ]]; then
  sudo_cmd=(sudo)
fi

echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq >/dev/null
# Debian's packages start their system services on install; deploy/local runs its own instances
# on loopback and would then find the ports taken. A temporary policy-rc.d (exit 101 = "do not
# start") keeps the install from starting daemons; one the machine already has is left alone.
policy=/usr/sbin/policy-rc.d
added_policy=false
if [[ ! -e "$policy" ]]; then
  printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" >/dev/null
  "${sudo_cmd[@]}" chmod +x "$policy"
  added_policy=true
fi
status=0
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || status=$?
if $added_policy; then
  "${sudo_cmd[@]}" rm -f "$policy"
fi
if ((status != 0)); then
  echo "apt-get install ${missing[*]} failed (exit $status)" >&2
  exit "$status"
fi
echo "installed: ${missing[*]}"
