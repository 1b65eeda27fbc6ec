# The native command-line tool `chaiba`: one file per command, registered in commands.cpp.
set(CHAIBA_CLI_SOURCES
  src/cli/main.cpp
  src/cli/commands.cpp
  src/cli/args.cpp
  src/cli/help_command.cpp
  src/cli/progress.cpp
  # Rules (engine/chess).
  src/cli/rules_cli.cpp
  src/cli/perft_command.cpp
  src/cli/moves_command.cpp
  src/cli/fen_command.cpp
  src/cli/status_command.cpp
  src/cli/parse_move_command.cpp
  src/cli/replay_command.cpp
  # Built-in engine.
  src/cli/uci_session.cpp
  src/cli/uci_command.cpp
  src/cli/bench_command.cpp
  src/cli/calibrate_command.cpp
  src/cli/engine_process.cpp
  src/cli/analyse_command.cpp
  # LLM players and arena.
  src/cli/play_command.cpp
  src/cli/models_command.cpp
  src/cli/key_command.cpp
  src/cli/rating_bench_command.cpp
  src/cli/pairing_bench_command.cpp
  src/cli/arena_command.cpp
  src/cli/arena_folder.cpp
  # Werewolf.
  src/cli/werewolf_command.cpp
  src/cli/werewolf_run.cpp
  # Story.
  src/cli/story_command.cpp
  src/cli/story_steering_command.cpp
  # Planner.
  src/cli/plan_command.cpp
  src/cli/plan_werewolf_stage.cpp
)
# Native-only networking (libcurl), kept out of chaiba_net so the layers also build for the web.
find_package(CURL REQUIRED)
add_library(chaiba_native_net STATIC src/net/curl_transport.cpp)
target_link_libraries(chaiba_native_net PUBLIC chaiba_net CURL::libcurl)

add_executable(chaiba ${CHAIBA_CLI_SOURCES})
target_link_libraries(chaiba PRIVATE chaiba_chess chaiba_werewolf_mode chaiba_story chaiba_planner chaiba_native_net
                      chaiba_persist_durable)
target_compile_definitions(chaiba PRIVATE CHAIBA_VERSION="${PROJECT_VERSION}"
                           CHAIBA_ASSETS_DIR="${CMAKE_SOURCE_DIR}/assets")
