#!/usr/bin/env bash
# Story mode's third-party sources, fetched like Dear ImGui in web/setup.sh: yaml-cpp 0.7.0 (world
# config) and md4c 0.4.8 (markdown) from Debian's source packages, unpacked into .deps/ (ignored).
# Skips what is already there. Usage: bash src/modes/story/fetch_deps.sh (as root, or with sudo).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
deps="$root/.deps"

sudo_cmd=()
[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)

# name  source-package  orig-tarball-glob  file-that-proves-a-complete-unpack
wanted=(
  "yaml-cpp yaml-cpp yaml-cpp_0.7.0*.orig.tar.* src/parse.cpp"
  "md4c md4c md4c_0.4.8*.orig.tar.* src/md4c.c"
)

missing=()
for entry in "${wanted[@]}"; do
  read -r name _ _ proof <<<"$entry"
  [ -f "$deps/$name/$proof" ] || missing+=("$entry")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command -v apt-get >/dev/null || { echo "fetch_deps: error: apt-get not found (Debian 12 expected)" >&2; exit 1; }

# The same deb-src entry web/setup.sh adds for ImGui.
src_list=/etc/apt/sources.list.d/chaiba-deb-src.sources
if ! apt-get source --print-uris yaml-cpp >/dev/null 2>&1; then
  echo "fetch_deps: adding a deb-src entry for Debian bookworm ($src_list)"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    | "${sudo_cmd[@]}" tee "$src_list" >/dev/null
  "${sudo_cmd[@]}" apt-get update -q
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp" # apt's _apt user downloads into it (else apt warns about an unsandboxed download)

for entry in "${missing[@]}"; do
  read -r name package glob proof <<<"$entry"
  mkdir -p "$tmp/$package"
  # apt-get exits non-zero when any file of the source package fails: md4c's Debian patch tarball
  # answers 404, yet the .orig tarball (all the build needs) has arrived. So judge by the tarball.
  (cd "$tmp/$package" && apt-get source --download-only "$package" >"$tmp/$package.log" 2>&1) || true
  tarball="$(ls "$tmp/$package"/$glob 2>/dev/null | head -n 1 || true)"
  if [ -z "$tarball" ]; then
    echo "fetch_deps: error: no $glob from 'apt-get source --download-only $package':" >&2
    cat "$tmp/$package.log" >&2
    exit 1
  fi
  # Unpack beside the target and move it in whole, so a broken run never leaves a half folder.
  mkdir -p "$tmp/unpack-$name" "$deps"
  tar -xf "$tarball" -C "$tmp/unpack-$name" --strip-components=1
  [ -f "$tmp/unpack-$name/$proof" ] || { echo "fetch_deps: error: $proof not found in $tarball" >&2; exit 1; }
  rm -rf "${deps:?}/$name"
  mv "$tmp/unpack-$name" "$deps/$name"
  echo "fetch_deps: $(basename "$tarball") unpacked into $deps/$name"
done
