# src/app: application state that is not UI (settings, storage); listed by hand.
list(APPEND CHAIBA_CORE_SOURCES
  src/app/settings.cpp
  src/app/file_store.cpp
  src/app/view_model.cpp
  src/app/game_setup.cpp
  src/app/match_session.cpp
  src/app/arena_session.cpp
  src/app/reasoning_model.cpp
)
