# The Story screen (web configuration only: it draws with ImGui): worlds in the page's store, the
# story view, the md4c markdown renderer, files, agent log, replay, settings section.
add_library(chaiba_story_ui STATIC
  src/modes/story/ui/markdown_view.cpp
  src/modes/story/ui/story_settings.cpp
  src/modes/story/ui/story_screen.cpp
  src/modes/story/ui/story_screen_api.cpp
  src/modes/story/ui/story_view.cpp
  src/modes/story/ui/story_dice_view.cpp
  src/modes/story/ui/story_panels.cpp
  src/modes/story/ui/story_memory_view.cpp
  src/modes/story/ui/story_worlds.cpp
  src/modes/story/ui/story_steering_screen.cpp
  src/modes/story/ui/story_steering_view.cpp
)
target_link_libraries(chaiba_story_ui PUBLIC chaiba_story chaiba_ui)
