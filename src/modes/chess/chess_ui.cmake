# The chess widgets (web configuration only: they draw with ImGui).
add_library(chaiba_chess_ui STATIC
  src/modes/chess/ui/board_view.cpp
  src/modes/chess/ui/move_list.cpp
  src/modes/chess/ui/new_game_dialog.cpp
  src/modes/chess/ui/game_tile.cpp
)
target_link_libraries(chaiba_chess_ui PUBLIC chaiba_chess chaiba_ui)
