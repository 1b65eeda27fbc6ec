// Level 9 in the page's engine worker (headless Chromium, engine_worker.js/.wasm as shipped) playing
// games like its calibration's: the suite's openings (assets/chess/openings/classical.json), both
// colours, against Debian's stockfish at UCI_Elo E with `go nodes 300000` (tests/calibrate/
// calibrate_top.sh). Each of the worker's moves is timed in the browser. Prints the time a move by
// stretch of the game and overall, and the worker's nodes a second. A benchmark, not a test.
// usage: node tests/bench/worker_games.mjs [SITE_DIR] [OPENINGS] [ELO] [LEVEL] [FIRST_OPENING]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const here = path.dirname(new URL(import.meta.url).pathname);
const e2e = path.join(here, '..', 'e2e');
const { startStaticServer, launchBrowser } = await import(path.join(e2e, 'lib.mjs'));
const { openEngineWorker } = await import(path.join(here, 'engine_worker_page.mjs'));
const { Chess } = await import(path.join(e2e, 'node_modules', 'chess.js', 'dist', 'esm', 'chess.js'));

const site = path.resolve(process.argv[2] || 'build/web/site');
const openings = Number(process.argv[3] || 3);
const elo = Number(process.argv[4] || 2400);
const level = Number(process.argv[5] || 9);
const firstOpening = Number(process.argv[6] || 0);
const suite = JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'assets', 'chess', 'openings', 'classical.json'), 'utf8')).openings;
const startFen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// Stockfish over UCI, as the calibration sets it up (tests/calibrate/selfplay.cpp).
const sf = spawn(process.env.STOCKFISH || '/usr/games/stockfish', [], { stdio: ['pipe', 'pipe', 'ignore'] });
const lines = readline.createInterface({ input: sf.stdout });
let waiting = null;
lines.on('line', (line) => { if (waiting && line.startsWith(waiting.prefix)) { const w = waiting; waiting = null; w.resolve(line); } });
const ask = (command, prefix) => new Promise((resolve) => { waiting = { prefix, resolve }; sf.stdin.write(command + '\n'); });
await ask('uci', 'uciok');
for (const o of ['Threads value 1', 'Hash value 16', 'UCI_LimitStrength value true', `UCI_Elo value ${elo}`]) sf.stdin.write(`setoption name ${o}\n`);
await ask('isready', 'readyok');

const server = await startStaticServer(site);
const browser = await launchBrowser();
const worker = await openEngineWorker(browser, server.url);

const moves = []; // {ply, ms, nodes}
let score = 0;
for (let g = 0; g < openings * 2; ++g) {
  const opening = suite[(firstOpening + Math.floor(g / 2)) % suite.length];
  const engineWhite = g % 2 === 0;
  const board = new Chess();
  const uci = [];
  for (const m of opening.moves) { board.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] }); uci.push(m); }
  await ask('ucinewgame\nisready', 'readyok');
  while (!board.isGameOver() && uci.length < 400) {
    const engineToMove = (board.turn() === 'w') === engineWhite;
    let move;
    if (engineToMove) {
      const r = await worker.move(`${startFen}\nstd\n${level}\n${g + 1}\n${uci.join(' ')}`);
      if (!r.ok) throw new Error(`worker: ${r.error}`);
      move = r.move;
      moves.push({ ply: uci.length, ms: r.ms, nodes: r.nodes });
    } else {
      move = (await ask(`position startpos moves ${uci.join(' ')}\ngo nodes 300000`, 'bestmove')).split(' ')[1];
    }
    board.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] });
    uci.push(move);
  }
  const result = board.isCheckmate() ? ((board.turn() === 'w') === engineWhite ? 0 : 1) : 0.5;
  score += result;
  console.log(`game ${g + 1} (${opening.name}, level ${level} ${engineWhite ? 'white' : 'black'}): ${result === 1 ? 'win' : result === 0 ? 'loss' : 'draw'} in ${uci.length} plies`);
}
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : 0; };
const line = (label, pick) => {
  const part = moves.filter(pick);
  if (!part.length) return;
  const ms = part.map((m) => m.ms), sum = ms.reduce((a, x) => a + x, 0), nodes = part.reduce((a, m) => a + m.nodes, 0);
  console.log(`${label.padEnd(12)} ${String(part.length).padStart(4)} moves: avg ${(sum / part.length / 1000).toFixed(2)} s, median ${(median(ms) / 1000).toFixed(2)} s, max ${(Math.max(...ms) / 1000).toFixed(2)} s, ${(nodes / part.length / 1e6).toFixed(2)} M nodes a move, ${(nodes / sum).toFixed(0)} k nodes/s`);
};
console.log(`level ${level} in the worker vs stockfish UCI_Elo ${elo} (300 000 nodes): ${score}/${openings * 2}`);
line('plies 1-40', (m) => m.ply < 40);
line('plies 41-80', (m) => m.ply >= 40 && m.ply < 80);
line('plies 81-', (m) => m.ply >= 80);
line('all moves', () => true);
sf.stdin.write('quit\n');
await browser.close();
await server.close();
