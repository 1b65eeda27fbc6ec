#!/bin/sh
# CTest splits a test name at ';' and the broken name then selects no doctest case at all, so a
# case named with a semicolon would silently never run. Fails on any such name.
# usage: check_test_names.sh PATH_TO_chaiba_tests
set -eu
bad=$("$1" --list-test-cases --no-skip | grep ';' || true)
if [ -n "$bad" ]; then
    echo "test case names must not contain a semicolon (ctest splits them):"
    echo "$bad"
    exit 1
fi
echo "$("$1" --list-test-cases --no-skip | grep -c .) test case names, none with a semicolon"
