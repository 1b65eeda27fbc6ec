# The chess widgets and screens (web configuration only: they draw with ImGui).
add_library(chaiba_chess_ui STATIC
  src/modes/chess/ui/board_view.cpp
  src/modes/chess/ui/board_style.cpp
  src/modes/chess/ui/move_list.cpp
  src/modes/chess/ui/eval_graph.cpp
  src/modes/chess/ui/new_game_dialog.cpp
  src/modes/chess/ui/game_tile.cpp
  src/modes/chess/ui/games_filter_bar.cpp
  src/modes/chess/ui/chess_settings_panel.cpp
  src/modes/chess/chess_screens.cpp
  src/modes/chess/match_screen.cpp
  src/modes/chess/match_view.cpp
  src/modes/chess/match_history_view.cpp
  src/modes/chess/arena_screen.cpp
  src/modes/chess/arena_setup.cpp
  src/modes/chess/arena_games.cpp
  src/modes/chess/arena_api.cpp
)
target_link_libraries(chaiba_chess_ui PUBLIC chaiba_chess chaiba_ui)
