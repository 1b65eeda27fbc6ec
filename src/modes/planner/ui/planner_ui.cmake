# The planner's page ("Plan with AI" beside the arena; web configuration only: it draws with ImGui).
add_library(chaiba_planner_ui STATIC
  src/modes/planner/ui/plan_settings.cpp
  src/modes/planner/ui/plan_panel.cpp
  src/modes/planner/ui/plan_panel_chat.cpp
  src/modes/planner/ui/plan_graph_view.cpp
  src/modes/planner/ui/plan_panel_api.cpp
)
target_link_libraries(chaiba_planner_ui PUBLIC chaiba_planner chaiba_ui chaiba_persist)
