# The UI monkey as a test of the native tree: the sanitizer build's binary (tests/monkey.cmake,
# built by tests/run.sh into build/sanitize) drives every screen with seeded random input.
set(CHAIBA_MONKEY_BIN "${CMAKE_SOURCE_DIR}/build/sanitize/chaiba_monkey" CACHE FILEPATH
    "The UI monkey built with the sanitizers (tests/monkey.cmake)")
add_test(NAME ui_monkey
         COMMAND "${CHAIBA_MONKEY_BIN}" --seeds 1-8 --frames 4000 --assets "${CMAKE_SOURCE_DIR}/assets"
         WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}")
set_tests_properties(ui_monkey PROPERTIES LABELS "unit;monkey" TIMEOUT 600
                     ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
