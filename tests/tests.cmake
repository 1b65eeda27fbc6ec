# Native tests: doctest unit tests (one <module>_test.cpp per module) registered with CTest, plus
# the slower suites and browser/end-to-end tests as separate CTest entries with labels.
find_package(doctest REQUIRED)
include(doctest)
enable_testing()

set(CHAIBA_TEST_SOURCES tests/test_main.cpp)
# App.
list(APPEND CHAIBA_TEST_SOURCES
  tests/settings_test.cpp
  tests/cli_args_test.cpp
  tests/view_model_test.cpp
)
# Rules (engine/chess).
list(APPEND CHAIBA_TEST_SOURCES
)
# Built-in engine (engine/search).
list(APPEND CHAIBA_TEST_SOURCES
)
# Net and agent.
list(APPEND CHAIBA_TEST_SOURCES
  tests/openrouter_json_test.cpp
  tests/sse_test.cpp
  tests/openrouter_client_test.cpp
  tests/chess_agent_test.cpp
)
# Arena.
list(APPEND CHAIBA_TEST_SOURCES
  tests/rating_test.cpp
  tests/scheduler_test.cpp
  tests/tournament_test.cpp
  tests/leaderboard_test.cpp
  tests/budget_test.cpp
  tests/bundle_test.cpp
)

add_executable(chaiba_tests ${CHAIBA_TEST_SOURCES} src/cli/args.cpp)
target_link_libraries(chaiba_tests PRIVATE chaiba_core chaiba_native_net doctest::doctest)
target_compile_definitions(chaiba_tests PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
doctest_discover_tests(chaiba_tests PROPERTIES LABELS unit)

# Browser and end-to-end suites (need the web build and node tooling; see tests/run.sh).
set(CHAIBA_WEB_SITE "${CMAKE_SOURCE_DIR}/build/web/site" CACHE PATH "Built web site to test")
add_test(NAME browser_smoke
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/smoke_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots")
set_tests_properties(browser_smoke PROPERTIES LABELS "browser" TIMEOUT 180)
add_test(NAME browser_board
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/board_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots")
set_tests_properties(browser_board PROPERTIES LABELS "browser" TIMEOUT 180)
