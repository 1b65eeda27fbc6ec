# Unit tests of the planner core (src/modes/planner): its own doctest binary, labelled "unit".
add_executable(chaiba_planner_tests tests/test_main.cpp
  tests/planner_plan_test.cpp
  tests/planner_text_test.cpp
  tests/planner_tools_test.cpp
  tests/planner_layout_test.cpp
  tests/planner_chat_test.cpp
  tests/planner_run_test.cpp
)
target_link_libraries(chaiba_planner_tests PRIVATE chaiba_planner doctest::doctest)
target_compile_definitions(chaiba_planner_tests PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
doctest_discover_tests(chaiba_planner_tests PROPERTIES LABELS unit)

# "Plan with AI" in the page against the local stand-in (OpenRouter and Anthropic formats); needs
# the web build (CHAIBA_WEB_SITE, set in tests/tests.cmake) and node tooling.
add_test(NAME browser_planner
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/planner_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots" $<TARGET_FILE:chaiba>)
set_tests_properties(browser_planner PROPERTIES LABELS "browser" TIMEOUT 900)
