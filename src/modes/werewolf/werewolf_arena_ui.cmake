# The Werewolf Arena screen (web configuration only: it draws with ImGui). Its tournament, store and
# leaderboard are in chaiba_werewolf_mode (native too).
add_library(chaiba_werewolf_arena_ui STATIC
  src/modes/werewolf/ui/tournament_screen.cpp
  src/modes/werewolf/ui/tournament_draw.cpp
)
target_link_libraries(chaiba_werewolf_arena_ui PUBLIC chaiba_werewolf_mode chaiba_ui)
