# engine/werewolf/: Werewolf rules and rule-based bots, standard library only (listed by hand).
set(CHAIBA_WEREWOLF_SOURCES
  engine/werewolf/types.cpp
  engine/werewolf/events.cpp
  engine/werewolf/game.cpp
  engine/werewolf/replay.cpp
  engine/werewolf/bots.cpp
)
