# The planner mode ("Plan with AI"): the plan graph, its text format, validated mutations, tool
# dispatch, diff and layout (pure), and the chat that runs a person's message through the tool loop.
add_library(chaiba_planner STATIC
  src/modes/planner/plan.cpp
  src/modes/planner/plan_text.cpp
  src/modes/planner/plan_diff.cpp
  src/modes/planner/plan_tools.cpp
  src/modes/planner/plan_layout.cpp
  src/modes/planner/plan_chat.cpp
  src/modes/planner/plan_run.cpp
)
target_link_libraries(chaiba_planner PUBLIC chaiba_llm chaiba_play chaiba_json chaiba_options chaiba_werewolf)
