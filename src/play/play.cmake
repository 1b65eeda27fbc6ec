# src/play: game-independent play: seats, failure rules, tempo, ratings, the tournament scheduler
# and runner over the game interface, the page's tournament session, budget, the bundle envelope.
add_library(chaiba_play STATIC
  src/play/seat.cpp
  src/play/failure.cpp
  src/play/tempo.cpp
  src/play/rating.cpp
  src/play/rating_job.cpp
  src/play/rating_refiner.cpp
  src/play/scheduler.cpp
  src/play/budget.cpp
  src/play/tournament_runner.cpp
  src/play/tournament_session.cpp
  src/play/tournament_store.cpp
  src/play/bundle.cpp
)
target_link_libraries(chaiba_play PUBLIC chaiba_llm chaiba_persist chaiba_options)
