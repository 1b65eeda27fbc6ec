# src/arena: sources of chaiba_core (listed by hand).
list(APPEND CHAIBA_CORE_SOURCES
  src/arena/players.cpp
  src/arena/match.cpp
  src/arena/engine_player.cpp
)
