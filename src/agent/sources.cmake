# src/agent: sources of chaiba_core (listed by hand).
list(APPEND CHAIBA_CORE_SOURCES
  src/agent/openrouter_json.cpp
  src/agent/sse.cpp
  src/agent/openrouter_client.cpp
  src/agent/assets.cpp
  src/agent/conversation.cpp
  src/agent/chess_agent.cpp
  src/agent/model_catalog.cpp
)
