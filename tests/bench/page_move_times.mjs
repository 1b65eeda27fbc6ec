// The page's engine worker over a whole game, in headless Chromium with the page drawing as a
// person would see it: a match between two built-in levels from the start position, engines moving
// as soon as they answer, each move's wall time taken in the page (from the previous move to this
// one) and its nodes from the game's PGN comments. Prints the average, median and slowest move, by
// stretch of the game, and the worker's nodes a second; then the same positions again in the engine
// worker alone (a blank page, nothing drawn), which splits the page's time a move into the search's
// and the page's own. A benchmark (figures), not a test.
// usage: node tests/bench/page_move_times.mjs [SITE_DIR] [WHITE_LEVEL] [BLACK_LEVEL] [MAX_SECONDS]
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const { startStaticServer, launchBrowser, waitForFrames } = await import(path.join(here, '..', 'e2e', 'lib.mjs'));
const { openEngineWorker } = await import(path.join(here, 'engine_worker_page.mjs'));
const { Chess } = await import(path.join(here, '..', 'e2e', 'node_modules', 'chess.js', 'dist', 'esm', 'chess.js'));

const site = path.resolve(process.argv[2] || 'build/web/site');
const white = Number(process.argv[3] || 9);
const black = Number(process.argv[4] || white);
const maxSeconds = Number(process.argv[5] || 600);

const server = await startStaticServer(site);
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.addInitScript(() => localStorage.setItem('chaiba.settings', JSON.stringify({ engineMoveDelayMs: 0 })));
const page = await context.newPage();
await page.goto(server.url);
await waitForFrames(page, 3);
// The page records when each move arrives (a 10 ms poll of the move count).
await page.evaluate(({ w, b }) => {
  window.benchTimes = [performance.now()];
  window.chaiba.newMatch({ white: `engine:${w}`, black: `engine:${b}` });
  let seen = 0;
  window.benchPoll = setInterval(() => {
    const st = window.chaiba.state();
    while (seen < st.moves.length) { window.benchTimes.push(performance.now()); ++seen; }
    if (st.status === 'finished') { clearInterval(window.benchPoll); window.benchDone = true; }
  }, 10);
}, { w: white, b: black });
await page.waitForFunction(() => window.benchDone === true, null, { timeout: maxSeconds * 1000, polling: 1000 }).catch(() => {});
const { times, pgn, status, san } = await page.evaluate(() => ({ times: window.benchTimes, pgn: window.chaiba.pgn(), status: window.chaiba.state().status, san: window.chaiba.state().moves }));
await context.close();
const nodes = [...pgn.matchAll(/· (\d+) nodes/g)].map((m) => Number(m[1]));
const ms = times.slice(1).map((t, i) => t - times[i]);
const n = Math.min(ms.length, nodes.length);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : 0; };
const report = (ms, nodes, n) => {
  const line = (label, from, to) => {
    const part = ms.slice(from, Math.min(to, n));
    if (!part.length) return;
    const nn = nodes.slice(from, Math.min(to, n)).reduce((a, x) => a + x, 0);
    const sum = part.reduce((a, x) => a + x, 0);
    console.log(`${label.padEnd(12)} ${String(part.length).padStart(4)} moves: avg ${(sum / part.length / 1000).toFixed(2)} s, median ${(median(part) / 1000).toFixed(2)} s, max ${(Math.max(...part) / 1000).toFixed(2)} s, ${(nn / part.length / 1e6).toFixed(2)} M nodes a move, ${(nn / sum).toFixed(0)} k nodes/s`);
  };
  line('plies 1-40', 0, 40);
  line('plies 41-80', 40, 80);
  line('plies 81-', 80, 1e9);
  line('whole game', 0, 1e9);
};
console.log(`engine:${white} vs engine:${black} in the page: ${status}, ${n} plies`);
report(ms, nodes, n);

// The same positions in the worker alone.
const board = new Chess();
const uci = san.slice(0, n).map((m) => { const mv = board.move(m); return mv.from + mv.to + (mv.promotion || ''); });
const worker = await openEngineWorker(browser, server.url);
const alone = [];
for (let i = 0; i < uci.length; ++i) {
  const r = await worker.move(`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nstd\n${i % 2 ? black : white}\n1\n${uci.slice(0, i).join(' ')}`);
  if (!r.ok) throw new Error(`ply ${i + 1}: ${r.error}`);
  alone.push(r);
}
const same = alone.filter((r, i) => r.move === uci[i]).length;
console.log(`the same positions in the worker alone (${same} of ${alone.length} moves as in the page):`);
report(alone.map((r) => r.ms), alone.map((r) => r.nodes), alone.length);
await browser.close();
await server.close();
