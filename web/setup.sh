#!/usr/bin/env bash
# One-time set-up on a fresh Debian 12 machine (as root): Debian packages, Dear ImGui 1.86, yaml-cpp
# and md4c source from Debian's source packages into .deps/ (ignored), the SVG piece sets of the
# pychess package, and the npm test tooling.
# Skips what is there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
want_tests="${1:-}"   # pass --tests to also install browser/test tooling

packages=(cmake g++ make xz-utils dpkg-dev ca-certificates emscripten nlohmann-json3-dev doctest-dev
          fonts-dejavu-core python3-fonttools libcurl4-openssl-dev python3)
if [ "$want_tests" = "--tests" ]; then
  packages+=(chromium stockfish nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node/npm/python3 may come from outside Debian (pyenv, nodesource): accept them when on PATH.
filtered=()
for p in "${missing[@]}"; do
  case "$p" in
    nodejs) command -v node >/dev/null || filtered+=("$p") ;;
    npm) command -v npm >/dev/null || filtered+=("$p") ;;
    python3) command -v python3 >/dev/null || filtered+=("$p") ;;
    *) filtered+=("$p") ;;
  esac
done
missing=("${filtered[@]}")

sudo_cmd=()
[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Dear ImGui 1.86: the full source (imgui*.cpp and backends) only ships in Debian's source package.
imgui_dir="$root/.deps/imgui"
if [ ! -f "$imgui_dir/imgui.cpp" ]; then
  src_list=/etc/apt/sources.list.d/chaiba-deb-src.sources
  if ! apt-get source --print-uris imgui >/dev/null 2>&1; then
    echo "setup: adding a deb-src entry for Debian bookworm ($src_list)"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      | "${sudo_cmd[@]}" tee "$src_list" >/dev/null
    "${sudo_cmd[@]}" apt-get update -q
  fi
  tmp="$(mktemp -d)"
  (cd "$tmp" && apt-get source --download-only imgui >/dev/null)
  tarball="$(ls "$tmp"/imgui_1.86*.orig.tar.* | head -n 1)"
  mkdir -p "$imgui_dir"
  tar -xf "$tarball" -C "$imgui_dir" --strip-components=1
  rm -rf "$tmp"
  [ -f "$imgui_dir/imgui.cpp" ] || { echo "setup: error: imgui.cpp not found after unpacking $tarball" >&2; exit 1; }
  echo "setup: Dear ImGui source in $imgui_dir"
fi

# Story mode's yaml-cpp and md4c, from Debian's source packages the same way.
bash "$root/src/modes/story/fetch_deps.sh"

# The boards' SVG piece sets from Debian's pychess package (not fatal: glyphs are drawn without them).
bash "$root/web/fetch_pieces.sh"

if [ "$want_tests" = "--tests" ] && [ ! -d "$root/tests/e2e/node_modules/playwright-core" ]; then
  echo "setup: installing npm test tooling (playwright-core, chess.js)"
  (cd "$root/tests/e2e" && npm ci --no-audit --no-fund --loglevel=error)
fi
