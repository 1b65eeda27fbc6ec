# Werewolf unit tests (engine/werewolf and src/modes/werewolf): their own executable, registered with CTest as "unit".
find_package(doctest REQUIRED)
include(doctest)
add_executable(chaiba_werewolf_tests tests/test_main.cpp tests/werewolf_rules_test.cpp
               tests/werewolf_kaggle_rules_test.cpp tests/werewolf_kaggle_mode_test.cpp tests/werewolf_export_test.cpp
               tests/werewolf_replay_test.cpp tests/werewolf_bots_test.cpp
               # The mode (src/modes/werewolf): context, AI seats with a scripted chat, the session.
               tests/werewolf_context_test.cpp tests/werewolf_agent_test.cpp tests/werewolf_session_test.cpp
               tests/werewolf_night_chat_test.cpp tests/werewolf_replay_view_test.cpp
               tests/werewolf_tournament_test.cpp)
target_link_libraries(chaiba_werewolf_tests PRIVATE chaiba_werewolf chaiba_werewolf_mode doctest::doctest)
target_compile_definitions(chaiba_werewolf_tests PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
doctest_discover_tests(chaiba_werewolf_tests PROPERTIES LABELS unit)
# CTest splits a test name at ';': guard against such names (see tests/check_test_names.sh).
add_test(NAME werewolf_test_names
         COMMAND sh "${CMAKE_SOURCE_DIR}/tests/check_test_names.sh" $<TARGET_FILE:chaiba_werewolf_tests>)
set_tests_properties(werewolf_test_names PROPERTIES LABELS unit)

# The AI players end to end: `chaiba werewolf` with 8 mixed seats against the local mock OpenRouter
# server (tests/e2e/mock_modes/werewolf.py), two whole games and a resume.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME werewolf_e2e
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/e2e/werewolf_e2e.py" --chaiba $<TARGET_FILE:chaiba>)
  set_tests_properties(werewolf_e2e PROPERTIES LABELS "e2e" TIMEOUT 300)
  # The run folder: --resume DIR alone, settings refused by name, tampered, impossible and torn
  # records named and played again, an older build's folder taken over, kill -9 loses no reported game.
  add_test(NAME werewolf_durable_e2e
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/e2e/werewolf_durable_e2e.py" --chaiba $<TARGET_FILE:chaiba>)
  set_tests_properties(werewolf_durable_e2e PROPERTIES LABELS "e2e" TIMEOUT 300)
endif()

# `chaiba werewolf --rules balanced|plain|kaggle` (bots only, a few seconds): the kaggle preset's
# records, its run folder and --resume, an unknown preset refused.
if(Python3_FOUND)
  add_test(NAME werewolf_rules_cli
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/werewolf_rules_cli_test.py" $<TARGET_FILE:chaiba>)
  set_tests_properties(werewolf_rules_cli PROPERTIES LABELS "unit" TIMEOUT 120)
endif()

# The Werewolf screen in the browser (tests/e2e/werewolf_test.mjs): a bot game, an 8-seat LLM game
# against the stand-in, a reload mid-game, a person's seat, export/import, a corrupt stored game.
add_test(NAME browser_werewolf
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/werewolf_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots" $<TARGET_FILE:chaiba>)
set_tests_properties(browser_werewolf PROPERTIES LABELS "browser" TIMEOUT 1200)
# The Werewolf Arena in the browser (the built page, the CLI for the same games, the mock models).
add_test(NAME browser_werewolf_arena
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/werewolf_arena_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots" $<TARGET_FILE:chaiba>)
set_tests_properties(browser_werewolf_arena PROPERTIES LABELS "browser" TIMEOUT 900)

# A benchmark, not a test: the Werewolf Arena's leaderboard at a game's end, recounted against
# grown by one game (tests/bench/werewolf_standings_bench.cpp).
add_executable(chaiba_werewolf_standings_bench tests/bench/werewolf_standings_bench.cpp)
target_link_libraries(chaiba_werewolf_standings_bench PRIVATE chaiba_werewolf_mode)
