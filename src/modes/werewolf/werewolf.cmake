# src/modes/werewolf: the Werewolf mode above the rules: prompts and strategies as data, the player
# context, the AI seat, the headless game session, the export and the leaderboard. Natively and web.
add_library(chaiba_werewolf_mode STATIC
  src/modes/werewolf/werewolf_prompts.cpp
  src/modes/werewolf/player_context.cpp
  src/modes/werewolf/answers.cpp
  src/modes/werewolf/ai_seat.cpp
  src/modes/werewolf/game_session.cpp
  src/modes/werewolf/results.cpp
  src/modes/werewolf/game_export.cpp
  src/modes/werewolf/replay_view.cpp
  src/modes/werewolf/tournament.cpp
  src/modes/werewolf/tournament_store.cpp
)
target_link_libraries(chaiba_werewolf_mode PUBLIC chaiba_play chaiba_llm chaiba_werewolf chaiba_json chaiba_options)
