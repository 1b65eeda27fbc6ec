# The ImGui widgets of src/ui (web configuration only).
add_library(chaiba_ui STATIC
  src/ui/theme.cpp
  src/ui/fonts.cpp
  src/ui/item_registry.cpp
  src/ui/player_card.cpp
  src/ui/reasoning_panel.cpp
  src/ui/debug_window.cpp
  src/ui/text_fit.cpp
  src/ui/leaderboard_table.cpp
  src/ui/model_picker.cpp
  src/ui/rating_plot.cpp
  src/ui/document_editor.cpp
)
target_link_libraries(chaiba_ui PUBLIC chaiba_ui_base chaiba_llm chaiba_imgui)
