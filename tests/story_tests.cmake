# Story mode's unit tests (chaiba_story_tests), registered with CTest under the "unit" label.
# Included from the top-level CMakeLists.txt after tests/tests.cmake (native builds only).
add_executable(chaiba_story_tests
  tests/test_main.cpp
  tests/story_world_files_test.cpp
  tests/story_tools_test.cpp
  tests/story_twist_test.cpp
  tests/story_context_test.cpp
  tests/story_config_test.cpp
  tests/story_turn_test.cpp
  tests/story_agents_test.cpp
  tests/story_conversation_test.cpp
  tests/story_store_test.cpp
  tests/story_edit_test.cpp
  tests/story_memory_test.cpp
  tests/story_steering_test.cpp
  tests/story_release_test.cpp
  tests/story_demo_test.cpp
  tests/story_card_test.cpp
  tests/story_library_test.cpp
)
target_link_libraries(chaiba_story_tests PRIVATE chaiba_story doctest::doctest)
target_compile_definitions(chaiba_story_tests PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
doctest_discover_tests(chaiba_story_tests PROPERTIES LABELS unit)
add_test(NAME story_test_names COMMAND sh "${CMAKE_SOURCE_DIR}/tests/check_test_names.sh" $<TARGET_FILE:chaiba_story_tests>)
set_tests_properties(story_test_names PROPERTIES LABELS unit)

# The Story screen in the page (needs the web build): tests/e2e/story_test.mjs against the stand-in.
add_test(NAME browser_story
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/story_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots" $<TARGET_FILE:chaiba>)
set_tests_properties(browser_story PROPERTIES LABELS "browser" TIMEOUT 600)

# A 1 000-turn campaign against a scripted game master, run by hand (tests/bench/story_campaign_bench.cpp;
# figures in the README's Story section): not a test, it measures.
add_executable(chaiba_story_campaign_bench tests/bench/story_campaign_bench.cpp)
target_link_libraries(chaiba_story_campaign_bench PRIVATE chaiba_story)
target_compile_definitions(chaiba_story_campaign_bench PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
