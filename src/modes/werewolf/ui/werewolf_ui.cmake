# The Werewolf screen (web configuration only: it draws with ImGui).
add_library(chaiba_werewolf_ui STATIC
  src/modes/werewolf/ui/replay_chat.cpp
  src/modes/werewolf/ui/werewolf_setup.cpp
  src/modes/werewolf/ui/werewolf_screen.cpp
  src/modes/werewolf/ui/werewolf_view.cpp
  src/modes/werewolf/ui/werewolf_panels.cpp
  src/modes/werewolf/ui/replay_screen.cpp
  src/modes/werewolf/ui/werewolf_settings.cpp
)
target_link_libraries(chaiba_werewolf_ui PUBLIC chaiba_werewolf_mode chaiba_ui)
