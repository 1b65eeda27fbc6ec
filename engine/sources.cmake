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
  # Built-in engine (engine/search).
  engine/search/elo_fit.cpp
  engine/search/evaluation.cpp
  engine/search/nnue.cpp
  engine/search/nnue_weights.cpp
  engine/search/eval_params.cpp
  engine/search/eval_params_tuned.cpp
  engine/search/levels.cpp
  engine/search/node_time.cpp
  engine/search/player.cpp
  engine/search/search.cpp
  engine/search/search_root.cpp
  engine/search/analysis.cpp
  engine/search/pesto_tables.cpp
  engine/search/transposition_table.cpp
)
