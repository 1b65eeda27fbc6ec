# src/modes/chess: everything chess above the rules. chaiba_chess (agent, match, arena, sessions)
# builds natively and for the web; chaiba_chess_ui (ImGui widgets) only for the web.
add_library(chaiba_chess STATIC
  src/modes/chess/chess_prompts.cpp
  src/modes/chess/chess_settings.cpp
  src/modes/chess/conversation.cpp
  src/modes/chess/chess_agent.cpp
  src/modes/chess/players.cpp
  src/modes/chess/match.cpp
  src/modes/chess/engine_player.cpp
  src/modes/chess/player_factory.cpp
  src/modes/chess/tournament.cpp
  src/modes/chess/cost_estimate.cpp
  src/modes/chess/prompt_size.cpp
  src/modes/chess/leaderboard.cpp
  src/modes/chess/leaderboard_report.cpp
  src/modes/chess/bundle.cpp
  src/modes/chess/bundle_harness.cpp
  src/modes/chess/bundle_pgn.cpp
  src/modes/chess/tournament_runner.cpp
  src/modes/chess/game_setup.cpp
  src/modes/chess/match_session.cpp
  src/modes/chess/match_history.cpp
  src/modes/chess/games_filter.cpp
  src/modes/chess/game_analyser.cpp
  src/modes/chess/arena_analysis.cpp
  src/modes/chess/arena_session.cpp
  src/modes/chess/arena_session_store.cpp
  src/modes/chess/arena_store.cpp
  src/modes/chess/reasoning_model.cpp
)
# The app's version, written into each exported tournament bundle (its harness).
target_compile_definitions(chaiba_chess PRIVATE CHAIBA_APP_VERSION="${PROJECT_VERSION}")
target_link_libraries(chaiba_chess PUBLIC chaiba_play chaiba_llm chaiba_persist chaiba_ui_base chaiba_engine)
