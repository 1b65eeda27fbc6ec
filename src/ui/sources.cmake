# src/ui and the ImGui-side of src/app: compiled only in the web configuration.
set(CHAIBA_UI_SOURCES
  src/app/app.cpp
  src/ui/theme.cpp
  src/ui/fonts.cpp
  src/ui/settings_panel.cpp
  src/ui/board_view.cpp
  src/ui/item_registry.cpp
  src/ui/player_card.cpp
  src/ui/move_list.cpp
  src/ui/reasoning_panel.cpp
  src/ui/debug_window.cpp
  src/ui/new_game_dialog.cpp
  src/app/match_screen.cpp
)
