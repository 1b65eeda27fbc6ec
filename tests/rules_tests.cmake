# Rules (engine/chess) suites beyond the unit tests: the deep perft table ("slow"), the sanitized
# fuzz run ("fuzz") and the chess.js differential test ("oracle"). Included from tests.cmake.

# Deep perft: its own doctest binary so the unit run stays fast.
add_executable(chaiba_rules_slow tests/test_main.cpp tests/chess_perft_slow_test.cpp)
target_link_libraries(chaiba_rules_slow PRIVATE chaiba_engine doctest::doctest)
target_compile_definitions(chaiba_rules_slow PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME rules_perft_slow COMMAND chaiba_rules_slow)
set_tests_properties(rules_perft_slow PROPERTIES LABELS "slow" TIMEOUT 600)

# Fuzz: FEN, SAN, UCI, PGN and the move reader on seeded random and mutated inputs, with the engine
# sources compiled into the binary under AddressSanitizer and UBSan.
add_executable(chaiba_rules_fuzz tests/chess_fuzz.cpp ${CHAIBA_ENGINE_SOURCES})
target_link_libraries(chaiba_rules_fuzz PRIVATE chaiba_options)
target_compile_definitions(chaiba_rules_fuzz PRIVATE CHAIBA_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_compile_options(chaiba_rules_fuzz PRIVATE -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer
                       -fno-sanitize-recover=all)
target_link_options(chaiba_rules_fuzz PRIVATE -fsanitize=address,undefined)
add_test(NAME rules_fuzz COMMAND chaiba_rules_fuzz 100000 20261122)
set_tests_properties(rules_fuzz PROPERTIES LABELS "fuzz" TIMEOUT 300)

# Differential test against chess.js (needs node and tests/e2e/node_modules: cd tests/e2e && npm ci).
add_test(NAME rules_chessjs_oracle
         COMMAND node "${CMAKE_SOURCE_DIR}/tests/oracle/chessjs_diff.mjs" $<TARGET_FILE:chaiba> 300 1)
set_tests_properties(rules_chessjs_oracle PROPERTIES LABELS "oracle" TIMEOUT 900)

# The CLI contract of the rules commands (exact output lines and exit codes).
add_test(NAME rules_cli_contract COMMAND bash "${CMAKE_SOURCE_DIR}/tests/rules_cli_test.sh" $<TARGET_FILE:chaiba>)
set_tests_properties(rules_cli_contract PROPERTIES LABELS "unit" TIMEOUT 60)

# Differential perft against stockfish on random odd positions (castling rights, Chess960, en passant).
add_test(NAME rules_stockfish_perft_oracle
         COMMAND python3 "${CMAKE_SOURCE_DIR}/tests/oracle/stockfish_perft_diff.py" $<TARGET_FILE:chaiba> 200 3 1)
set_tests_properties(rules_stockfish_perft_oracle PROPERTIES LABELS "oracle" TIMEOUT 600)

# Move quality against stockfish: `chaiba analyse` and stockfish (depth 12, the same lichess
# formulas) find the same blunders in tests/data/pgn/blunders.pgn, including the known ones.
add_test(NAME analysis_stockfish_oracle
         COMMAND python3 "${CMAKE_SOURCE_DIR}/tests/oracle/stockfish_analysis_diff.py" $<TARGET_FILE:chaiba>
                 "${CMAKE_SOURCE_DIR}/tests/data/pgn/blunders.pgn" /usr/games/stockfish 12)
set_tests_properties(analysis_stockfish_oracle PROPERTIES LABELS "oracle" TIMEOUT 600)
