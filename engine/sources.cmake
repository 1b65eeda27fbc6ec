# engine/: rules and built-in players, standard library only (listed by hand).
set(CHAIBA_ENGINE_SOURCES
  engine/chess/types.cpp
  engine/chess/bitboard.cpp
  engine/chess/position.cpp
  engine/chess/fen.cpp
  engine/chess/movegen.cpp
  engine/chess/notation.cpp
  engine/chess/game.cpp
  engine/chess/pgn.cpp
  engine/chess/move_reader.cpp
)
