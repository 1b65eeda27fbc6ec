// Placeholder translation unit until the rules engine lands (issue: chess rules engine).
namespace chaiba::chess {
int rulesVersion() { return 0; }
} // namespace chaiba::chess
