# The command-line tool's own contract, run against the built `chaiba`: every command answers
# --help/-h and refuses unknown options (cli_help); the progress line of a long run appears on a
# terminal and never in a pipe (cli_progress). Included from tests.cmake.
add_test(NAME cli_help COMMAND bash "${CMAKE_SOURCE_DIR}/tests/cli_help_test.sh" $<TARGET_FILE:chaiba>)
set_tests_properties(cli_help PROPERTIES LABELS "unit" TIMEOUT 300)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME cli_progress
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/cli_progress_test.py" $<TARGET_FILE:chaiba>)
  set_tests_properties(cli_progress PROPERTIES LABELS "unit" TIMEOUT 300)
endif()
