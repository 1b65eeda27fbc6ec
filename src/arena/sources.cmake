# src/arena: sources of chaiba_core (listed by hand).
list(APPEND CHAIBA_CORE_SOURCES
  src/arena/players.cpp
  src/arena/match.cpp
  src/arena/engine_player.cpp
  src/arena/rating.cpp
  src/arena/scheduler.cpp
  src/arena/tournament.cpp
  src/arena/leaderboard.cpp
  src/arena/budget.cpp
  src/arena/bundle.cpp
  src/arena/tournament_runner.cpp
)
