# The page's shell and screens (web configuration only).
add_library(chaiba_app STATIC
  src/app/app.cpp
  src/app/settings_panel.cpp
  src/app/match_screen.cpp
  src/app/arena_screen.cpp
  src/app/arena_setup.cpp
  src/app/arena_api.cpp
)
target_link_libraries(chaiba_app PUBLIC chaiba_app_core chaiba_chess_ui chaiba_ui)
