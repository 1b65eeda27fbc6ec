# Durable files and `chaiba arena`'s folder (issue 16, native half): unit tests of src/persist's
# durable files, the folder behaviours end to end, and kill -9 / --resume at a small scale.
target_sources(chaiba_tests PRIVATE tests/durable_file_test.cpp)
target_link_libraries(chaiba_tests PRIVATE chaiba_persist_durable)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME arena_durable_e2e
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/e2e/arena_durable_e2e.py" --chaiba $<TARGET_FILE:chaiba>)
  set_tests_properties(arena_durable_e2e PROPERTIES LABELS "e2e" TIMEOUT 300)
  # The bench (tests/bench/arena_scale.py) small: 8 players, 80 games, 4 kills -9 at random moments.
  add_test(NAME arena_kill_resume
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/bench/arena_scale.py" --chaiba $<TARGET_FILE:chaiba>
                   --players 8 --games 80 --concurrency 4 --kills 4 --max-plies 120 --kill-after-max 1.5 --seed 7)
  set_tests_properties(arena_kill_resume PROPERTIES LABELS "e2e" TIMEOUT 300)
endif()
