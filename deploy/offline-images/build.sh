#!/usr/bin/env bash
# Builds local stand-ins for the Docker Hub images that Dockerfile and compose.yaml name, from Debian
# bookworm packages and this machine's Node 20 (README.md beside this file). Needs root, debootstrap and a
# Docker engine. Safe to run again: an image that exists is kept (REBUILD=1 builds them all again).
set -euo pipefail
cd "$(dirname "$0")"

BASE=qrfarm-offline/debian:bookworm
MIRROR=${MIRROR:-http://deb.debian.org/debian}
WORK=${WORK:-/var/tmp/qrfarm-offline-images}
mkdir -p "$WORK"

have() { [ "${REBUILD:-0}" != 1 ] && docker image inspect "$1" > /dev/null 2>&1; }

# The base: a minimal Debian bookworm root filesystem, imported as an image.
if ! have "$BASE"; then
  if [ ! -e "$WORK/rootfs/etc/debian_version" ] || [ -d "$WORK/rootfs/debootstrap" ]; then # none, or unfinished
    rm -rf "$WORK/rootfs"
    debootstrap --variant=minbase bookworm "$WORK/rootfs" "$MIRROR"
  fi
  cat > "$WORK/rootfs/etc/apt/sources.list" << SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
SOURCES
  rm -rf "$WORK/rootfs/var/cache/apt/archives/"*.deb "$WORK/rootfs/var/lib/apt/lists/"*
  tar -C "$WORK/rootfs" -c . | docker import -c 'CMD ["bash"]' - "$BASE"
fi

# node:20-bookworm-slim: this machine's node binary and npm, laid out as in the official image.
if ! have node:20-bookworm-slim; then
  ctx="$WORK/node-context"
  rm -rf "$ctx" && mkdir -p "$ctx"
  cp node/Dockerfile "$ctx/"
  cp "$(readlink -f "$(command -v node)")" "$ctx/node"
  npm_cli=$(readlink -f "$(command -v npm)") # …/node_modules/npm/bin/npm-cli.js
  cp -a "$(dirname "$(dirname "$npm_cli")")" "$ctx/npm"
  # The CA certificates this machine trusts, so npm in a build trusts them too (a TLS-inspecting proxy's).
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/"
  docker build --build-arg BASE="$BASE" -t node:20-bookworm-slim "$ctx"
fi

# postgres:15, redis:7, nginx:1.27-alpine: Debian's packages (PostgreSQL 15, Redis 7.0, nginx 1.22).
for spec in postgres:15:postgres redis:7:redis nginx:1.27-alpine:nginx; do
  tag=${spec%:*} dir=${spec##*:}
  have "$tag" || docker build --build-arg BASE="$BASE" -t "$tag" "$dir"
done

docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' |
  grep -E '^(qrfarm-offline/debian|node|postgres|redis|nginx):'
