# The page's shell (web configuration only): header, settings panel, screen registry, automation API.
add_library(chaiba_app STATIC
  src/app/app.cpp
  src/app/settings_panel.cpp
  src/app/plan_arena_host.cpp
  src/app/page_modes.cpp
)
target_link_libraries(chaiba_app PUBLIC chaiba_app_core chaiba_chess_ui chaiba_werewolf_ui chaiba_planner_ui chaiba_story_ui chaiba_ui)
target_link_libraries(chaiba_app PUBLIC chaiba_werewolf_arena_ui) # the Werewolf Arena screen
