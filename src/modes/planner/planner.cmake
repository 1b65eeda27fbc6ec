# The planner mode's pure core ("Plan with AI"): the plan graph, its text format, validated
# mutations, tool dispatch, diff and layout. No UI, network or model calls; links JSON only.
add_library(chaiba_planner STATIC
  src/modes/planner/plan.cpp
  src/modes/planner/plan_text.cpp
  src/modes/planner/plan_diff.cpp
  src/modes/planner/plan_tools.cpp
  src/modes/planner/plan_layout.cpp
)
target_link_libraries(chaiba_planner PUBLIC chaiba_json chaiba_options)
