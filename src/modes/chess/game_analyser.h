// The page's move-quality analysis: scores one position of the shown game per call, at the same
// fixed budget as `chaiba analyse` (engine/search/analysis.h), so a finished game gets its eval
// graph, ?!/?/?? marks and accuracies while the page stays responsive; the live game is scored
// as it goes when no engine of the match is searching.
#pragma once

#include "src/modes/chess/layers.h"
#include "engine/chess/game.h"
#include "engine/search/analysis.h"
#include "src/modes/chess/position_scorer.h"
#include "src/modes/chess/tournament.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace chaiba::chessmode {

// The budget the page and `chaiba analyse` share by default (deterministic: nodes, not time).
search::AnalysisBudget defaultAnalysisBudget();
// The arena's budget (many games: lighter than a single game's): `chaiba arena`'s default
// --analyse-nodes and the page's arena, so both judge the same games the same way.
search::AnalysisBudget arenaAnalysisBudget();

// What an analysis says of move i of a game: its judgement and the evaluation after it.
struct TurnJudgement {
    int cpLoss = -1;
    int judgement = 0;
    int evalCp = 0;
    int evalMate = 0;
};
// Move i of `analysis` (positions[i + 1] is the position after it), as a record keeps it.
TurnJudgement turnJudgement(const search::GameAnalysis& analysis, std::size_t i);
void applyJudgement(TurnRecord& turn, const TurnJudgement& j);

// Judges every move of an arena game (TurnRecord::cpLoss / judgement / eval) at `budget`. Error
// sentence when the record's moves do not replay from its start FEN (the record is unchanged).
std::optional<std::string> analyseRecord(GameRecord& game, const search::AnalysisBudget& budget);
// Whether a record (whole or folded) is a finished game whose moves are not analysed yet.
inline bool awaitsAnalysis(const GameRecord& g) { return g.finished() && g.plies() > 0 && !g.analysed(); }
// What becomes of a game once analysed (whole), before it takes its place in the list: e.g. kept
// in the store and folded again. Its error stops the analysis.
using AnalysedRecordSink = std::function<std::optional<std::string>(GameRecord& analysed)>;
// Analyses the finished games not yet analysed, in order; counts them into `analysed` and tells
// onGame the count after each game. A folded game is read back whole through `whole` (an error
// without it). Stops at the first game that does not replay or read back and returns its error
// ("game 3: move 7: ...").
std::optional<std::string> analyseFinishedRecords(std::vector<GameRecord>& games, const search::AnalysisBudget& budget,
                                                  int& analysed, const std::function<void(int)>& onGame = {},
                                                  const WholeRecordSource& whole = {},
                                                  const AnalysedRecordSink& sink = {});

class GameAnalyser {
public:
    explicit GameAnalyser(search::AnalysisBudget budget = defaultAnalysisBudget());
    ~GameAnalyser();

    // Positions are scored by `scorer` from now on (the page: an engine worker, so the main thread
    // never searches); null: by a searcher in this thread, one position per step().
    void setScorer(std::unique_ptr<PositionScorer> scorer);
    // Follows a game: keeps the scores of the common prefix, forgets the rest.
    void follow(const chess::Game& game);
    // Scores the next unscored position (with a scorer: sends it when the scorer is ready, and the
    // reply lands later); false when every position is scored or the scorer failed.
    bool step();
    bool complete() const;
    // Why the scorer stopped (a worker that failed): the analysis stays as far as it got.
    const std::string& error() const { return error_; }
    int scoredPositions() const;
    int totalPositions() const { return static_cast<int>(positions_.size()); }
    // Score of position `index` (0 = start), if scored.
    const search::PositionEval* eval(std::size_t index) const;
    // The judged moves so far: move i is judged once positions i and i+1 are scored.
    const search::GameAnalysis& analysis() const { return analysis_; }

private:
    void rejudge();

    bool requestNext(std::size_t index);

    search::AnalysisBudget budget_;
    std::unique_ptr<search::Searcher> searcher_;
    std::unique_ptr<PositionScorer> scorer_;
    std::shared_ptr<int> generation_ = std::make_shared<int>(0); // bumped when scored positions are forgotten
    bool pending_ = false;
    std::string error_;
    chess::Position start_ = chess::Position::startPosition();
    std::vector<chess::Move> moves_;
    std::vector<chess::Position> positions_;   // before each move, then the final one
    std::vector<uint64_t> hashes_;             // hash of positions_[i]
    std::vector<std::optional<search::PositionEval>> evals_;
    search::GameAnalysis analysis_;
};

// The analysis as the page's automation API reports it: {scored, total, complete, error, accuracy
// {white, black}, acpl {white, black}, marks [per ply: "", "?!", "?", "??"], evalsCp [per position]}.
nlohmann::json analysisState(const GameAnalyser& analyser);

} // namespace chaiba::chessmode
