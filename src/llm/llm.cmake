# src/llm: game-independent model calls: chat service (OpenRouter), SSE, catalog, call settings,
# call log and cost, prompts and tool schemas as data, and the tool loop every mode uses.
add_library(chaiba_llm STATIC
  src/llm/call_settings.cpp
  src/llm/call_log.cpp
  src/llm/tool_loop.cpp
  src/llm/structured.cpp
  src/llm/ask.cpp
  src/llm/prompt_library.cpp
  src/llm/openrouter_json.cpp
  src/llm/sse.cpp
  src/llm/http_chat_client.cpp
  src/llm/openrouter_client.cpp
  src/llm/anthropic_json.cpp
  src/llm/anthropic_client.cpp
  src/llm/assets.cpp
  src/llm/model_catalog.cpp
  src/llm/provider_router.cpp
)
target_link_libraries(chaiba_llm PUBLIC chaiba_net chaiba_json chaiba_options)
