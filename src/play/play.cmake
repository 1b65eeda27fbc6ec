# src/play: game-independent play: ratings, the tournament scheduler, budget.
add_library(chaiba_play STATIC
  src/play/rating.cpp
  src/play/scheduler.cpp
  src/play/budget.cpp
)
target_link_libraries(chaiba_play PUBLIC chaiba_llm chaiba_persist chaiba_options)
