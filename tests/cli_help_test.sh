#!/usr/bin/env bash
# Every command answers --help: for each command `chaiba help` lists (read from the binary, so a new
# command is covered without touching this file), `--help`, `-h` and `chaiba help NAME` print its
# usage on stdout, nothing on stderr, exit 0; each option its usage lists is one the parser takes;
# an unknown option is refused (exit 2) with a message naming it and pointing at --help.
# Usage: tests/cli_help_test.sh PATH_TO_CHAIBA
set -u
BIN="$1"
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}
run() { # run ARGS...: stdout in $tmp/out, stderr in $tmp/err, exit code in $rc
  "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
}

# The overview: `chaiba --help`, `-h` and `help` alike.
for words in "--help" "-h" "help"; do
  run $words
  [ "$rc" = 0 ] || fail "chaiba $words: exit $rc"
  [ -s "$tmp/err" ] && fail "chaiba $words: stderr: $(head -3 "$tmp/err")"
  grep -q '^usage: chaiba COMMAND' "$tmp/out" || fail "chaiba $words: no usage line on stdout"
done
run help
names=$(sed -n '/^commands:$/,/^$/p' "$tmp/out" | sed -n 's/^  \([a-z0-9-]\+\)  .*/\1/p')
count=$(printf '%s\n' "$names" | grep -c .)
[ "$count" -ge 10 ] || fail "chaiba help lists $count commands: $(cat "$tmp/out")"

for name in $names; do
  for flag in --help -h; do
    run "$name" "$flag"
    [ "$rc" = 0 ] || fail "$name $flag: exit $rc ($(head -2 "$tmp/err"))"
    [ -s "$tmp/err" ] && fail "$name $flag: stderr: $(head -3 "$tmp/err")"
    grep -Eq "^usage: chaiba $name( |\$)" "$tmp/out" || fail "$name $flag: no 'usage: chaiba $name' line on stdout"
    grep -q '^  -h, --help ' "$tmp/out" || fail "$name $flag: the options do not list -h, --help"
  done
  cp "$tmp/out" "$tmp/usage"
  run help "$name"
  { [ "$rc" = 0 ] && cmp -s "$tmp/out" "$tmp/usage"; } || fail "chaiba help $name: exit $rc or not the text of $name --help"
  # Each option the usage lists is taken by the parser: with it, an unknown option is still the
  # first (and only) error. Refused before the command runs, so nothing is played or fetched.
  sed -n 's/^  --\([a-z0-9-]\+\)\( [^ ]\+\)\?  .*/\1\2/p' "$tmp/usage" >"$tmp/options"
  while read -r option placeholder; do
    if [ -n "$placeholder" ]; then run "$name" "--$option" x --zz-unknown; else run "$name" "--$option" --zz-unknown; fi
    { [ "$rc" = 2 ] && grep -q 'unknown option --zz-unknown' "$tmp/err"; } ||
      fail "$name --$option: listed in its usage, refused by its parser: $(head -2 "$tmp/err" "$tmp/out")"
  done <"$tmp/options"
  # An unknown option: exit 2, stderr names it and points at --help, nothing on stdout.
  run "$name" --no-such-option
  [ "$rc" = 2 ] || fail "$name --no-such-option: exit $rc (want 2)"
  grep -q -- '--no-such-option' "$tmp/err" || fail "$name --no-such-option: stderr does not name it: $(head -2 "$tmp/err")"
  grep -q -- "chaiba $name --help" "$tmp/err" || fail "$name --no-such-option: stderr does not point at --help"
  [ -s "$tmp/out" ] && fail "$name --no-such-option: stdout: $(head -2 "$tmp/out")"
done

# A flag's value is never read as --help (story --say --help plays a turn's text, it does not print help).
run story --world "$tmp/none" --say --help
[ "$rc" = 0 ] && fail "story --say --help: read as --help"
grep -q '^usage: chaiba story' "$tmp/out" && fail "story --say --help: printed the usage"
run help no-such-command
[ "$rc" = 2 ] || fail "chaiba help no-such-command: exit $rc (want 2)"

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all $count commands answer --help and -h"
