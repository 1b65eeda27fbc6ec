// Validates a PGN file written by `chaiba play` with chess.js (an independent oracle): every move
// legal, the result consistent with the final position. Prints one JSON line per game.
// Usage: node check_pgn.mjs FILE   (exit 1 on the first invalid game)
import { readFileSync } from "node:fs";
import { Chess } from "chess.js";

const text = readFileSync(process.argv[2], "utf8");
const games = text.split(/\n(?=\[Event )/).map((g) => g.trim()).filter((g) => g.length > 0);
if (games.length === 0) {
  console.error("no games in " + process.argv[2]);
  process.exit(1);
}
let failed = false;
for (const [index, pgn] of games.entries()) {
  const chess = new Chess();
  try {
    chess.loadPgn(pgn);
  } catch (error) {
    console.error(`game ${index + 1}: chess.js rejects it: ${error.message}`);
    failed = true;
    continue;
  }
  const headers = chess.getHeaders();
  const result = headers.Result;
  const termination = headers.Termination || "";
  let problem = "";
  if (chess.isCheckmate()) {
    const expected = chess.turn() === "w" ? "0-1" : "1-0";
    if (result !== expected) problem = `checkmate but Result ${result}`;
  } else if (chess.isStalemate() || chess.isInsufficientMaterial()) {
    if (result !== "1/2-1/2") problem = `dead draw but Result ${result}`;
  } else if (result === "1-0" || result === "0-1") {
    if (!/forfeit/.test(termination)) problem = `decisive result ${result} without mate or forfeit (${termination})`;
  } else if (result !== "1/2-1/2" && result !== "*") {
    problem = `bad Result ${result}`;
  }
  const comments = chess.getComments().length;
  console.log(JSON.stringify({ game: index + 1, result, termination, plies: chess.history().length, comments,
                               problem }));
  if (problem) failed = true;
}
process.exit(failed ? 1 : 0);
