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
  tests/provider_router_test.cpp
  tests/view_model_test.cpp
  tests/game_setup_test.cpp
  tests/match_session_test.cpp
  tests/match_history_test.cpp
  tests/arena_session_test.cpp
  tests/arena_analysis_test.cpp
  tests/arena_store_test.cpp
  tests/image_header_test.cpp
)
# Rules (engine/chess).
list(APPEND CHAIBA_TEST_SOURCES
  tests/chess_position_test.cpp
  tests/chess_movegen_test.cpp
  tests/chess_notation_test.cpp
  tests/chess_game_test.cpp
  tests/chess_pgn_test.cpp
  tests/chess_move_reader_test.cpp
)
include(tests/rules_tests.cmake)
include(tests/cli_tests.cmake)
# Built-in engine (engine/search).
list(APPEND CHAIBA_TEST_SOURCES
  tests/elo_fit_test.cpp
  tests/levels_test.cpp
  tests/nnue_test.cpp
  tests/search_test.cpp
  tests/node_time_test.cpp
  tests/analysis_test.cpp
  tests/uci_session_test.cpp
  src/cli/uci_session.cpp
)
# Net and agent.
list(APPEND CHAIBA_TEST_SOURCES
  tests/openrouter_json_test.cpp
  tests/sse_test.cpp
  tests/tool_loop_test.cpp
  tests/structured_test.cpp
  tests/ask_test.cpp
  tests/prompt_library_test.cpp
  tests/openrouter_client_test.cpp
  tests/anthropic_client_test.cpp
  tests/chess_agent_test.cpp
  tests/context_policy_test.cpp
)
# Arena.
list(APPEND CHAIBA_TEST_SOURCES
  tests/match_test.cpp
  tests/rating_test.cpp
  tests/scheduler_test.cpp
  tests/pairing_test.cpp
  tests/seat_spec_test.cpp
  tests/tournament_test.cpp
  tests/leaderboard_test.cpp
  tests/leaderboard_report_test.cpp
  tests/budget_test.cpp
  tests/prompt_size_test.cpp
  tests/bundle_test.cpp
  tests/bundle_pgn_test.cpp
  tests/tournament_runner_test.cpp
  tests/play_runner_test.cpp
  tests/tournament_session_test.cpp
  tests/tournament_store_test.cpp
)

add_executable(chaiba_tests ${CHAIBA_TEST_SOURCES} src/cli/args.cpp)
target_link_libraries(chaiba_tests PRIVATE chaiba_app_core chaiba_chess chaiba_native_net doctest::doctest)
target_compile_definitions(chaiba_tests PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
include(tests/durable_tests.cmake)
doctest_discover_tests(chaiba_tests PROPERTIES LABELS unit)
# CTest splits a test name at ';' and the broken name selects no case: guard against such names.
add_test(NAME unit_test_names COMMAND sh "${CMAKE_SOURCE_DIR}/tests/check_test_names.sh" $<TARGET_FILE:chaiba_tests>)
set_tests_properties(unit_test_names PROPERTIES LABELS unit)

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
add_test(NAME browser_match
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/match_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots" $<TARGET_FILE:chaiba>)
set_tests_properties(browser_match PROPERTIES LABELS "browser" TIMEOUT 600)
add_test(NAME browser_arena
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/arena_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots" $<TARGET_FILE:chaiba>)
set_tests_properties(browser_arena PROPERTIES LABELS "browser" TIMEOUT 900)
add_test(NAME browser_workers
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/workers_test.mjs" "${CHAIBA_WEB_SITE}")
set_tests_properties(browser_workers PROPERTIES LABELS "browser" TIMEOUT 400)
# The newcomer's first minutes (key defaults, money on screen, standings, dialogs, layouts).
add_test(NAME browser_newcomer
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/newcomer_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots" $<TARGET_FILE:chaiba>)
set_tests_properties(browser_newcomer PROPERTIES LABELS "browser" TIMEOUT 900)
add_test(NAME browser_analysis
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/analysis_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots")
set_tests_properties(browser_analysis PROPERTIES LABELS "browser" TIMEOUT 400)
# The piece sets and board themes: images at the square size, Settings, resize, a build without them.
add_test(NAME browser_pieces
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/pieces_test.mjs" "${CHAIBA_WEB_SITE}"
                 "${CMAKE_BINARY_DIR}/screenshots")
set_tests_properties(browser_pieces PROPERTIES LABELS "browser" TIMEOUT 300)
# The page's download: gzip -9 of index.wasm + index.js at most 1 MiB with every mode
# (tests/bench/wasm_size.py; the README's table says what each library and mode costs).
add_test(NAME web_size
         COMMAND "${CHAIBA_PYTHON3}" "${CMAKE_SOURCE_DIR}/tests/bench/wasm_size.py" "${CHAIBA_WEB_SITE}" --limit 1048576)
set_tests_properties(web_size PROPERTIES LABELS "e2e" TIMEOUT 60)

# LLM players end to end: `chaiba play` against the local mock OpenRouter server (Python standard
# library; chess.js from tests/e2e/node_modules checks the PGN).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME play_e2e
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/e2e/play_e2e.py" --chaiba $<TARGET_FILE:chaiba>)
  set_tests_properties(play_e2e PROPERTIES LABELS "e2e" TIMEOUT 600)
  add_test(NAME arena_e2e
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/e2e/arena_e2e.py" --chaiba $<TARGET_FILE:chaiba>)
  set_tests_properties(arena_e2e PROPERTIES LABELS "e2e" TIMEOUT 900)
  add_test(NAME story_e2e
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/e2e/story_e2e.py" --chaiba $<TARGET_FILE:chaiba>)
  set_tests_properties(story_e2e PROPERTIES LABELS "e2e" TIMEOUT 120)
  add_test(NAME plan_e2e
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/e2e/plan_e2e.py" --chaiba $<TARGET_FILE:chaiba>)
  set_tests_properties(plan_e2e PROPERTIES LABELS "e2e" TIMEOUT 300)
endif()
# The browser fetch transport (web/http_web.cpp) built with emscripten and run under node against
# the same mock server.
find_program(CHAIBA_EMXX em++)
if(Python3_FOUND AND CHAIBA_EMXX)
  add_test(NAME http_web_node
           COMMAND bash "${CMAKE_SOURCE_DIR}/tests/e2e/http_web_node_test.sh" $<TARGET_FILE:chaiba>)
  set_tests_properties(http_web_node PROPERTIES LABELS "e2e" TIMEOUT 300)
endif()
# Built-in engine: the slow suite (level matches), skipped by the unit run.
add_test(NAME engine_slow COMMAND chaiba_tests --no-skip -ts=slow)
set_tests_properties(engine_slow PROPERTIES LABELS "slow" TIMEOUT 1800)
# The arena's storage in the browser: a killed tab, the older layout, a full localStorage, the I/O
# worker stopping or missing.
add_test(NAME browser_arena_durable
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/e2e/arena_durable_test.mjs" "${CHAIBA_WEB_SITE}" "${CMAKE_BINARY_DIR}/screenshots"
                 $<TARGET_FILE:chaiba>)
set_tests_properties(browser_arena_durable PROPERTIES LABELS "browser" TIMEOUT 1500)
