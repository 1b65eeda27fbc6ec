#!/usr/bin/env bash
# The boards' piece sets, fetched like Dear ImGui: the SVG pieces of Debian's `pychess` package
# (cburnett — lichess's default — and merida) into .deps/pieces/ (ignored), with the package's
# copyright file and the GPL-3 text they are distributed under. Skips what is already there.
# Never fatal: without the pieces the page draws its font glyphs (web.cmake says so at configure).
# Usage: bash web/fetch_pieces.sh
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps="$root/.deps"
sets=(cburnett merida)
names=(wk wq wr wb wn wp bk bq br bb bn bp)

complete=1
for set in "${sets[@]}"; do
  for n in "${names[@]}"; do [ -f "$deps/pieces/$set/$n.svg" ] || complete=0; done
done
[ -f "$deps/pieces/copyright" ] || complete=0
[ "$complete" = 1 ] && exit 0

warn() { echo "fetch_pieces: warning: $*; the boards will draw font glyphs instead of piece images" >&2; exit 0; }
command -v apt-get >/dev/null || warn "apt-get not found (Debian 12 expected)"
command -v dpkg-deb >/dev/null || warn "dpkg-deb not found"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp" # apt's _apt user downloads into it (else apt warns about an unsandboxed download)
# `apt-get download` needs no root; it needs the package lists (web/setup.sh ran apt-get update).
if ! (cd "$tmp" && apt-get download pychess >"$tmp/download.log" 2>&1); then
  cat "$tmp/download.log" >&2
  warn "'apt-get download pychess' failed"
fi
deb="$(ls "$tmp"/pychess_*.deb 2>/dev/null | head -n 1 || true)"
[ -n "$deb" ] || warn "no pychess .deb after 'apt-get download pychess'"
dpkg-deb -x "$deb" "$tmp/x" || warn "could not unpack $(basename "$deb")"

# Copy beside the target and move it in whole, so a broken run never leaves a half folder.
out="$tmp/pieces"
for set in "${sets[@]}"; do
  mkdir -p "$out/$set"
  for n in "${names[@]}"; do
    cp "$tmp/x/usr/share/pychess/pieces/$set/$n.svg" "$out/$set/$n.svg" || warn "$set/$n.svg is not in $(basename "$deb")"
  done
done
cp "$tmp/x/usr/share/doc/pychess/copyright" "$out/copyright" || warn "the package's copyright file is missing"
if [ -f /usr/share/common-licenses/GPL-3 ]; then
  cp /usr/share/common-licenses/GPL-3 "$out/GPL-3"
else
  warn "/usr/share/common-licenses/GPL-3 not found (the licence text must ship with the pieces)"
fi
printf 'SVG chess pieces (%s) from Debian bookworm'"'"'s pychess package (%s).\n' "${sets[*]}" "$(basename "$deb")" >"$out/SOURCE"
printf 'Licence: GPL-3+ (see copyright, from /usr/share/doc/pychess/copyright, and GPL-3).\n' >>"$out/SOURCE"
printf 'Changed in the build (web/patch_piece.cmake): merida/bk.svg, the crown filled black and outlined in white (as packaged, a white gradient draws the black king white-bodied).\n' >>"$out/SOURCE"
rm -rf "${deps:?}/pieces"
mkdir -p "$deps"
mv "$out" "$deps/pieces"
echo "fetch_pieces: $(basename "$deb"): ${sets[*]} pieces in $deps/pieces"
