#!/usr/bin/env bash
# The rules commands' exact CLI contract (output lines and exit codes), run against the built
# `chaiba`: bench, perft, moves, fen, status, parse-move, and `error: <reason>` + exit 2 on a bad FEN.
# Usage: tests/rules_cli_test.sh PATH_TO_CHAIBA
set -u
BIN="$1"
failures=0
expect() {  # expect NAME WANT_EXIT WANT_OUTPUT_REGEX -- COMMAND...
  local name="$1" want_rc="$2" want="$3"
  shift 4
  local out rc
  out=$("$BIN" "$@" 2>/dev/null)
  rc=$?
  if [ "$rc" != "$want_rc" ] || ! printf '%s' "$out" | grep -Eq -- "$want"; then
    echo "FAIL $name: exit $rc (want $want_rc), output:"
    printf '%s\n' "$out" | head -5
    failures=$((failures + 1))
  fi
}
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# The search's signatures: the classic search of levels 1-7 (unchanged since they were calibrated)
# levels 8 and 9's (as calibrated in sitting 8) and the strongest one (the judge's); a change to any
# of them changes its count.
expect bench-classic 0 '^nodes=846297 time_ms=[0-9]+ nps=[0-9]+$' -- bench
expect bench-top-levels 0 '^nodes=398920 time_ms=[0-9]+ nps=[0-9]+$' -- bench --top-levels
expect bench-strongest 0 '^nodes=415547 time_ms=[0-9]+ nps=[0-9]+$' -- bench --strongest
out=$("$BIN" bench --strongest --top-levels 2>&1)
rc=$?
if [ "$rc" != 2 ] || ! printf '%s' "$out" | grep -q '^error: --strongest and --top-levels name two searches'; then
  echo "FAIL bench-two-searches: exit $rc (want 2), output: $out"
  failures=$((failures + 1))
fi
expect perft-last-line 0 '^nodes=197281 time_ms=[0-9]+ nps=[0-9]+$' -- perft 4
expect perft-kiwipete 0 'nodes=97862 time_ms=' -- perft 3 --fen "$KIWI"
expect perft-divide 0 '^e1g1: 43$' -- perft 2 --divide --fen "$KIWI"
expect perft-divide-total 0 '^nodes=2039 ' -- perft 2 --divide --fen "$KIWI"
expect perft-960-divide 0 'e1h1: 43' -- perft 2 --divide --960 --fen "$KIWI"
expect perft-bad-fen 2 '^error: missing white king$' -- perft 2 --fen "4k3/8/8/8/8/8/8/8 w - - 0 1"
expect moves-count 0 '^O-O$' -- moves --fen "$KIWI"
expect moves-uci 0 '^e1c1$' -- moves --uci --fen "$KIWI"
expect moves-bad-fen 2 '^error: side to move must be' -- moves --fen "8/8/8/8/8/8/8/K6k x - - 0 1"
# --stdin: a line per FEN line, in order: the moves, an error for a bad FEN (the rest still
# answered), an empty line for a position without moves, a refusal for an endless line.
stdin_out=$(printf '%s\nnot a fen\n7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n%s\n8/8/8/8/8/8/8/K6k w - - 0 1\n' "$KIWI" "$(head -c 2000 /dev/zero | tr '\0' x)" |
  "$BIN" moves --stdin --uci)
want_stdin=$(printf '%s\n' "$("$BIN" moves --uci --fen "$KIWI" | tr '\n' ' ' | sed 's/ $//')")
if [ "$(printf '%s\n' "$stdin_out" | sed -n 1p)" != "$want_stdin" ] ||
   ! printf '%s\n' "$stdin_out" | sed -n 2p | grep -q '^error: FEN has 3 fields' ||
   [ -n "$(printf '%s\n' "$stdin_out" | sed -n 3p)" ] ||
   ! printf '%s\n' "$stdin_out" | sed -n 4p | grep -q '^error: the line is over 512 characters' ||
   [ "$(printf '%s\n' "$stdin_out" | sed -n 5p)" != "a1a2 a1b1 a1b2" ]; then
  echo "FAIL moves-stdin, output:"
  printf '%s\n' "$stdin_out" | cut -c1-120
  failures=$((failures + 1))
fi
expect moves-stdin-with-fen 2 '^error: usage: chaiba moves' -- moves --stdin --fen "$KIWI"
expect fen-apply 0 '^r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3$' -- fen --apply "e4 e5 g1f3 Nc6"
expect fen-illegal 1 '^error: move 3 \(Ke3\): Ke3 is not legal' -- fen --apply "e4 e5 Ke3"
expect fen-bad-fen 2 '^error: ' -- fen --fen "garbage" --apply "e4"
expect status-mate 0 '^checkmate check$' -- status --fen "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
expect status-stalemate 0 '^stalemate$' -- status --fen "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
expect status-insufficient 0 '^insufficient_material$' -- status --fen "8/8/8/4k3/8/8/8/4KB2 w - - 0 1"
expect status-fifty 0 '^fifty_move_claimable$' -- status --fen "8/8/8/3k4/8/8/4R3/4K3 w - - 100 80"
expect status-75 0 '^seventy_five_move$' -- status --fen "8/8/8/3k4/8/8/4R3/4K3 w - - 150 80"
expect status-check 0 '^ongoing check$' -- status --fen "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"
expect status-ongoing 0 '^ongoing$' -- status
expect parse-move 0 '^Nf3 g1f3$' -- parse-move "I'll play **Nf3**"
expect parse-move-960 0 '^O-O e1h1$' -- parse-move --960 --fen "$KIWI" "0-0"
expect parse-move-error 1 '^error: Nd2 is not legal: d2 is occupied by your own pawn$' -- parse-move Nd2
expect parse-move-bad-fen 2 '^error: ' -- parse-move --fen "8/8/8" e4
# Invisible characters are dropped, never read as a different move ("N<zero-width joiner>f3" is Nf3,
# not the pawn move f3); control characters in a message reach the terminal escaped.
expect parse-move-zwj 0 '^Nf3 g1f3$' -- parse-move "$(printf 'N\u200df3')"
expect parse-move-bom 0 '^Nf3 g1f3$' -- parse-move "$(printf '\ufeffNf3')"
expect fen-control-chars 1 '^error: .*\\x1b\[2J' -- fen --apply "$(printf 'e4 e5 Ke3\033[2J')"
if [ "$failures" != 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all rules CLI checks passed"
