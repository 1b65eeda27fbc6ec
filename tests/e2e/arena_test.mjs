// Browser end-to-end tests of the arena against the built page and the local OpenRouter mock:
// without a key, a real click on the Arena tab and on Start plays an engine tournament on the live
// grid and a click on a board opens that game; with the mock, a 6-model continuous arena with
// injected faults (always-illegal, rate-limited, timing out) runs to the end through a reload
// mid-tournament that loses nothing, with the expected forfeits and a consistent leaderboard;
// the exported bundle holds no key and, imported after a reset, reproduces the leaderboard.
// usage: node arena_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startStaticServer, startMock, launchBrowser, waitForFrames, runTests, clickItem, clickUntil, openPage as openPageAt } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const mockServer = await startMock(chaiba);
const mock = { baseUrl: mockServer.baseUrl, key: mockServer.key };
const browser = await launchBrowser();
const arena = (page) => page.evaluate(() => window.chaiba.arena.state());
// The header's "session $X" as these tests see it: the sum of the screens' session spends (the match
// screen's and the arena's; the other modes spend nothing here).
const sessionSpend = (page) => page.evaluate(() =>
  window.chaiba.state().sessionCostUsd + window.chaiba.arena.state().sessionSpentUsd);

const openPage = (context) => openPageAt(context, server.url);

// Clicks a named item of a scrolling panel, wheeling the panel down until the item is in view.
async function clickScrolled(page, name, over) {
  for (let i = 0; i < 30; ++i) {
    const items = await page.evaluate(() => window.chaiba.ui());
    if (items[name]) return clickItem(page, name);
    const [x, y, w, h] = items[over];
    await page.mouse.move(x + w / 2, y + Math.min(h / 2, 200));
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(100);
  }
  throw new Error(`${name} never came into view`);
}
const analysed = () => window.chaiba.arena.state().analysis.waiting === 0 && window.chaiba.arena.state().analysis.game === -1;

// The leaderboard must add up: every finished game counted once per side, W+D+L = games.
function checkLeaderboard(st) {
  const finished = st.games.filter((g) => g.result !== '*');
  let games = 0;
  for (const r of st.leaderboard) {
    if (r.wins + r.draws + r.losses !== r.games) throw new Error(`${r.name}: W/D/L do not add up to ${r.games}`);
    if (!(r.low <= r.rating + 1e-6 && r.rating <= r.high + 1e-6)) throw new Error(`${r.name}: rating outside its interval`);
    games += r.games;
  }
  if (games !== 2 * finished.length) throw new Error(`leaderboard counts ${games} sides, ${finished.length} games finished`);
}

await runTests([
  ['no key: a real click on Arena and on Start plays engines on the live grid; a click opens a game', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Engines at a quicker pace than the default 700 ms a move (which is for watching), so the
    // six games end in well under a minute; what is tested is the same.
    await context.addInitScript(() => {
      if (!localStorage.getItem('chaiba.settings')) localStorage.setItem('chaiba.settings', '{"engineMoveDelayMs":150}');
    });
    const { page, errors } = await openPage(context);
    await clickItem(page, 'header.arena');
    await page.waitForFunction(() => window.chaiba.arena.state().screen === 'arena', null, { timeout: 10000 });
    const fresh = await arena(page);
    if (fresh.phase !== 'setup') throw new Error(`a fresh page should be in setup, is ${fresh.phase}`);
    if (fresh.config.participants.some((p) => String(p.spec).startsWith('llm:'))) throw new Error('no key, yet models are proposed');
    await page.screenshot({ path: path.join(shots, 'arena-setup-1280x800.png') });
    // A short field so the test ends soon; the default field is the same kind of players.
    await page.evaluate(() => window.chaiba.arena.configure({
      name: 'Browser ladder', participants: ['random', 'engine:1', 'engine:2', { spec: 'random', name: 'Random B' }],
      format: 'roundrobin', games: 1, concurrency: 2, maxPlies: 60, seed: 5 }));
    await clickItem(page, 'arena.start');
    await page.waitForFunction(() => window.chaiba.arena.state().live.some((g) => g.plies >= 2), null, { timeout: 60000 });
    await page.screenshot({ path: path.join(shots, 'arena-grid-engines-1280x800.png') });
    await page.waitForFunction(() => window.chaiba.arena.state().gamesFinished >= 1, null, { timeout: 180000 });
    await clickItem(page, 'arena.tile.0');
    await page.waitForFunction(() => window.chaiba.arena.state().selectedGame >= 0, null, { timeout: 10000 });
    await page.waitForFunction(() => !!window.chaiba.ui()['arena.game.board'], null, { timeout: 10000 });
    await page.screenshot({ path: path.join(shots, 'arena-game-1280x800.png') });
    await clickItem(page, 'arena.back');
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 240000 });
    const st = await arena(page);
    if (st.gamesFinished !== 6 || st.totalGames !== 6) throw new Error(`games ${st.gamesFinished}/${st.totalGames}`);
    checkLeaderboard(st);
    // Calibrated engine levels anchor the scale; the random movers are fitted.
    if (!st.leaderboard.some((r) => r.anchored)) throw new Error('no engine level anchors the ratings');
    if (st.leaderboard.some((r) => r.anchored && !r.name.startsWith('Engine'))) throw new Error('only engines are anchors');
    await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shots, 'arena-leaderboard-engines-1280x800.png') });
    errors.check();
    await context.close();
  }],

  ['engine-only arena: ACPL and blunders/100 equal `chaiba arena`\'s on the bundle; pairing and context controls reach the bundle', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Engines without the watching delay (700 ms a move): the figures compared do not depend on it,
    // and three games of up to 40 plies one at a time took most of this suite's time.
    await context.addInitScript(() => {
      if (!localStorage.getItem('chaiba.settings')) localStorage.setItem('chaiba.settings', '{"engineMoveDelayMs":0}');
    });
    const { page, errors } = await openPage(context);
    await page.evaluate(() => window.chaiba.show('arena'));
    await page.evaluate(() => window.chaiba.arena.configure({ name: 'Quality', participants: ['random', 'engine:1', 'engine:3'],
      format: 'arena', games: 3, concurrency: 1, maxPlies: 40, seed: 7 }));
    await page.waitForTimeout(300);
    // The two setup choices, by clicks; kept with the draft through a reload.
    await clickScrolled(page, 'arena.setup.pairingInformative', 'arena.setup.games');
    await page.waitForFunction(() => window.chaiba.arena.state().config.pairing === 'informative', null, { timeout: 5000 })
      .catch(() => { throw new Error('the pairing control did not change the draft'); });
    await clickScrolled(page, 'arena.setup.contextStateless', 'arena.setup.games');
    await page.waitForFunction(() => window.chaiba.arena.state().config.contextPolicy === 'stateless', null, { timeout: 5000 })
      .catch(() => { throw new Error('the context control did not change the draft'); });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'arena-setup-quality-1280x800.png') });
    await page.reload();
    await waitForFrames(page, 3);
    const draft = (await arena(page)).config;
    if (draft.pairing !== 'informative' || draft.contextPolicy !== 'stateless')
      throw new Error(`the draft after a reload: pairing ${draft.pairing}, context ${draft.contextPolicy}`);
    await page.evaluate(() => window.chaiba.arena.start());
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 240000 });
    await page.waitForFunction(analysed, null, { timeout: 240000 });
    await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shots, 'arena-leaderboard-quality-1280x800.png') });
    const items = await page.evaluate(() => window.chaiba.ui());
    const table = items['arena.leaderboard'];
    for (const col of ['arena.leaderboard.acpl', 'arena.leaderboard.blunders', 'arena.leaderboard.toPm50']) {
      const c = items[col];
      if (!c) throw new Error(`the leaderboard has no ${col} column at 1280x800`);
      if (c[0] + c[2] > table[0] + table[2] + 1) throw new Error(`${col} ${c} is cut off the table ${table}`);
    }
    const st = await arena(page);
    if (st.analysis.error) throw new Error(`analysis error: ${st.analysis.error}`);
    // Informative pairing may leave an anchored level out (a game between two anchors teaches the
    // fit nothing, so the random mover meets whichever anchor its estimate of the moment is nearest
    // to; since sitting 9's ratings that is level 3 all three games), so every player who played
    // has analysed moves, and at least two played.
    const played = st.leaderboard.filter((r) => r.games > 0);
    if (played.length < 2 || played.some((r) => !(r.analysedMoves > 0)))
      throw new Error(`a player has no analysed moves: ${JSON.stringify(st.leaderboard.map((r) => [r.name, r.games, r.analysedMoves]))}; games ${JSON.stringify(st.games.map((g) => [g.white, g.black, g.result, g.plies, g.analysed]))}`);
    // Games to ±50: none for the anchored levels, a count for the fitted random mover.
    for (const r of st.leaderboard) {
      if (r.anchored ? r.gamesToPlusMinus50 !== 0 : !(r.gamesToPlusMinus50 > 0))
        throw new Error(`games to ±50 of ${r.name}: ${r.gamesToPlusMinus50}`);
    }
    if (!st.games.every((g) => g.judgements.every((j) => j !== null))) throw new Error('a game has unjudged moves');
    // The bundle carries the figures and the setup's choices.
    const bundle = JSON.parse(await page.evaluate(() => window.chaiba.arena.exportJson()));
    if (bundle.config.pairing !== 'informative' || bundle.config.contextPolicy !== 'stateless')
      throw new Error(`bundle config: pairing ${bundle.config.pairing}, context ${bundle.config.contextPolicy}`);
    const pageRow = (p) => st.leaderboard.find((r) => r.participant === p);
    for (const r of bundle.leaderboard.rows) {
      const mine = pageRow(r.participant);
      if (r.avgCpLoss !== mine.avgCpLoss || r.blundersPer100Moves !== mine.blundersPer100Moves || r.contextPolicy !== 'stateless')
        throw new Error(`bundle row ${r.participant}: ${JSON.stringify(r)} vs shown ${JSON.stringify(mine)}`);
    }
    // `chaiba arena --resume` on the bundle with its analysis taken out: the CLI analyses the same
    // games at its default budget and must find the same figures.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaiba-quality-'));
    const stripped = JSON.parse(JSON.stringify(bundle));
    for (const g of stripped.games) for (const m of g.moves) { delete m.cpLoss; delete m.judgement; }
    delete stripped.leaderboard;
    fs.writeFileSync(path.join(dir, 'tournament.json'), JSON.stringify(stripped));
    const out = execFileSync(chaiba, ['arena', '--resume', dir, '--quiet'], { encoding: 'utf8' });
    if (!/analysed 3 game\(s\)/.test(out)) throw new Error(`the CLI did not analyse the 3 games:\n${out}`);
    const cli = JSON.parse(fs.readFileSync(path.join(dir, 'tournament.json'), 'utf8'));
    for (const r of cli.leaderboard.rows) {
      const mine = pageRow(r.participant);
      if (r.analysedMoves !== mine.analysedMoves || Math.abs(r.avgCpLoss - mine.avgCpLoss) > 1e-9 ||
          r.blunders !== mine.blunders || Math.abs(r.blundersPer100Moves - mine.blundersPer100Moves) > 1e-9)
        throw new Error(`participant ${r.participant}: CLI ACPL ${r.avgCpLoss} blunders/100 ${r.blundersPer100Moves} ` +
          `(${r.analysedMoves} moves), page ${mine.avgCpLoss} / ${mine.blundersPer100Moves} (${mine.analysedMoves})`);
    }
    // The printed table has the columns too.
    if (!/ACPL\s+blunders\/100\s+context/.test(out)) throw new Error(`CLI table header:\n${out}`);
    fs.rmSync(dir, { recursive: true, force: true });
    // Every game is reachable: a leaderboard row lists that player's games below the table, and a
    // row of that list opens the game (not only the grid's slots).
    await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
    await page.waitForFunction(() => !!window.chaiba.ui()['arena.leaderboard']);
    // The first row: below the header row (rows are a line and their padding high).
    const lb = (await page.evaluate(() => window.chaiba.ui()))['arena.leaderboard'];
    await page.mouse.click(lb[0] + lb[2] * 0.3, lb[1] + 36);
    const who = st.leaderboard[0].participant;
    await page.waitForFunction((p) => window.chaiba.arena.state().gamesList.player === p, who, { timeout: 5000 })
      .catch(() => { throw new Error('a leaderboard row did not filter the games list'); });
    const theirs = st.games.filter((g) => g.white === who || g.black === who).map((g) => g.id).sort();
    const listed = (await arena(page)).gamesList.ids.slice().sort();
    if (JSON.stringify(listed) !== JSON.stringify(theirs)) throw new Error(`the list shows games ${listed}, the player played ${theirs}`);
    await page.waitForFunction(() => !!window.chaiba.ui()['arena.games.list']);
    // Filtered by how the games ended: the endings that occurred are offered, and one lists its games.
    const ending = st.games.find((g) => g.result !== '*' && (g.white === who || g.black === who)).termination;
    await clickItem(page, 'arena.games.ending');
    await clickItem(page, `arena.games.ending.${ending}`);
    const byEnding = st.games.filter((g) => (g.white === who || g.black === who) && g.termination === ending).map((g) => g.id).sort();
    await page.waitForFunction((n) => window.chaiba.arena.state().gamesList.ids.length === n, byEnding.length, { timeout: 5000 })
      .catch(() => { throw new Error(`the ending filter (${ending}) did not list its ${byEnding.length} games`); });
    if (JSON.stringify((await arena(page)).gamesList.ids.slice().sort()) !== JSON.stringify(byEnding))
      throw new Error(`the ending filter lists other games than ${byEnding}`);
    await page.screenshot({ path: path.join(shots, 'arena-games-list-1280x800.png') });
    // The list's first row (newest first), clicked: its game opens.
    const list = (await page.evaluate(() => window.chaiba.ui()))['arena.games.list'];
    const newest = (await arena(page)).gamesList.ids[0];
    await page.mouse.click(list[0] + 20, list[1] + 36);
    await page.waitForFunction((id) => window.chaiba.arena.state().selectedGame === id && !!window.chaiba.ui()['arena.back'],
      newest, { timeout: 10000 }).catch(() => { throw new Error('a row of the games list did not open its game'); });
    // The game opened is reviewed as on the match screen: eval bar and graph, accuracies, and the
    // marks of its review are the arena's own judgements (the same judge, the same budget).
    await page.waitForFunction((id) => { const r = window.chaiba.arena.state().review; return r && r.game === id && r.complete; },
      newest, { timeout: 60000 }).catch(() => { throw new Error('the opened game was not reviewed (no eval graph)'); });
    const reviewed = await arena(page);
    const stored = reviewed.games.find((g) => g.id === newest);
    const want = stored.judgements.map((j) => ['', '?!', '?', '??'][j]);
    if (JSON.stringify(reviewed.review.marks) !== JSON.stringify(want))
      throw new Error(`the review marks ${JSON.stringify(reviewed.review.marks)}, the arena judged ${JSON.stringify(want)}`);
    if (!(reviewed.review.accuracy.white > 0 && reviewed.review.accuracy.black > 0)) throw new Error('the review shows no accuracy');
    const reviewItems = await page.evaluate(() => window.chaiba.ui());
    for (const item of ['arena.game.evalBar', 'arena.game.graph'])
      if (!reviewItems[item]) throw new Error(`the game view has no ${item}`);
    // A click on the graph's first quarter shows a position of the game's first quarter.
    const graph = reviewItems['arena.game.graph'];
    await page.mouse.click(graph[0] + graph[2] * 0.25, graph[1] + graph[3] * 0.6);
    await page.waitForFunction((n) => { const v = window.chaiba.arena.state().review.viewPly; return v > 0 && v < n / 2; },
      stored.moves.length, { timeout: 5000 }).catch(() => { throw new Error('a click on the eval graph did not show its position'); });
    await page.screenshot({ path: path.join(shots, 'arena-review-1280x800.png') });
    // The leaderboard to publish: the CSV holds the table's ratings, the HTML report stands alone
    // with a plot line per player and the methods; one rating scale in the table at a time.
    await page.evaluate(() => window.chaiba.arena.select(null));
    await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
    await page.waitForFunction(() => !!window.chaiba.ui()['arena.exportCsv'], null, { timeout: 10000 });
    const [csvFile] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), clickItem(page, 'arena.exportCsv')]);
    const csv = fs.readFileSync(await csvFile.path(), 'utf8').trim().split('\n');
    const board = (await arena(page)).leaderboard;
    if (csv.length !== board.length + 1) throw new Error(`the CSV has ${csv.length - 1} rows for ${board.length} players`);
    board.forEach((r, i) => {
      const cells = csv[i + 1].split(',');
      if (Math.abs(Number(cells[3]) - r.rating) > 0.051) throw new Error(`CSV row ${i + 1}: rating ${cells[3]}, the table ${r.rating}`);
    });
    const [htmlFile] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), clickItem(page, 'arena.exportReport')]);
    const report = fs.readFileSync(await htmlFile.path(), 'utf8');
    if ((report.match(/<polyline/g) || []).length !== board.length || !report.includes('Methods') || report.includes('<script'))
      throw new Error('the HTML report lacks a plot line per player or the methods, or holds a script');
    await clickItem(page, 'arena.scale.liveElo');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'arena-leaderboard-live-elo-1280x800.png') });
    await clickItem(page, 'arena.scale.rating');
    await page.evaluate(() => window.chaiba.arena.select(null));
    // A finished game opened from the grid shows the marks (the random mover blunders).
    if (!st.games.some((g) => g.judgements.some((j) => j === 3))) throw new Error('no blunder judged in games with a random mover');
    // The grid's tiles of finished games carry the last move's mark, coloured, as the move list does.
    await page.evaluate(() => window.chaiba.arena.tab('games'));
    await page.waitForTimeout(400);
    const gridItems = await page.evaluate(() => window.chaiba.ui());
    const names = ['good', 'inaccuracy', 'mistake', 'blunder'];
    st.slots.forEach((slot, i) => {
      const g = st.games.find((x) => x.id === slot.game);
      if (!g || !gridItems[`arena.tile.${i}`]) return;
      const last = g.judgements[g.judgements.length - 1];
      const marks = Object.keys(gridItems).filter((k) => k.startsWith(`arena.tile.${i}.mark.`));
      const want = last > 0 ? [`arena.tile.${i}.mark.${names[last]}`] : [];
      if (JSON.stringify(marks) !== JSON.stringify(want))
        throw new Error(`tile ${i} (game ${g.id}, last judgement ${last}) shows marks ${JSON.stringify(marks)}`);
    });
    await page.screenshot({ path: path.join(shots, 'arena-grid-quality-1280x800.png') });
    errors.check();
    await context.close();
  }],

  ['six models with faults: forfeits as expected, a reload loses nothing, export/import reproduces it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    // A 4 s timeout: mock/stalled (6 s) always misses it, the others keep 4 s of room on a busy machine
    // (with 1 s, then 2 s, loaded full runs once timed mock/text-mode out).
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl, timeoutSeconds: 4 }), mock);
    await page.evaluate(() => window.chaiba.show('arena'));
    // The catalog says mock/text-mode takes no tools; a game started before it arrives would offer
    // it tools, which the stand-in ignores (OpenRouter refuses instead), and it would forfeit.
    await page.waitForFunction(() => window.chaiba.arena.state().catalog !== 'loading', null, { timeout: 20000 });
    const models = ['mock/legal', 'mock/illegal-once', 'mock/always-illegal', 'mock/ratelimit', 'mock/stalled', 'mock/text-mode'];
    await page.evaluate((ms) => window.chaiba.arena.configure({
      name: 'Faults', participants: ms.map((m) => 'llm:' + m).concat(['engine:1']),
      format: 'arena', games: 10, concurrency: 3, maxPlies: 24, seed: 11 }), models);
    await page.evaluate(() => window.chaiba.arena.start());
    // Mid-tournament: at least two games done and a running game with moves; then reload.
    await page.waitForFunction(() => {
      const s = window.chaiba.arena.state();
      return s.gamesFinished >= 2 && s.live.some((g) => g.plies >= 4);
    }, null, { timeout: 240000 });
    await page.screenshot({ path: path.join(shots, 'arena-grid-llm-1280x800.png') });
    const before = await arena(page);
    // Every move is written to IndexedDB as it is played; the browser commits a write a moment
    // later, so the moves of the last instant before a reload may still be in flight (they are
    // then simply asked again). Everything older must survive: reload a second after the snapshot.
    await page.waitForTimeout(1000);
    await page.reload();
    await waitForFrames(page, 3);
    const after = await arena(page);
    if (after.phase !== 'running') throw new Error(`after the reload the tournament is ${after.phase}: ${after.error}`);
    for (const g of before.games) {
      const now = after.games.find((x) => x.id === g.id);
      if (!now) throw new Error(`game ${g.id} was lost in the reload`);
      if (g.result !== '*') {
        if (now.result !== g.result || JSON.stringify(now.moves) !== JSON.stringify(g.moves))
          throw new Error(`finished game ${g.id} changed in the reload`);
        continue;
      }
      // A running game continues from its moves: all of those in the snapshot are still there.
      if (JSON.stringify(now.moves.slice(0, g.moves.length)) !== JSON.stringify(g.moves))
        throw new Error(`running game ${g.id} lost moves: ${g.moves.join(' ')} -> ${now.moves.join(' ')}`);
    }
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 400000 });
    await page.waitForFunction(analysed, null, { timeout: 240000 }); // the figures settle before the export
    const st = await arena(page);
    if (st.gamesFinished !== 10) throw new Error(`${st.gamesFinished} games finished`);
    checkLeaderboard(st);
    // The intervals after game ends were drawn in the engine worker (equal to the page's own:
    // the unit tests compare them bit for bit), and none of its replies was refused.
    if (st.ratingsWorker.error || !(st.ratingsWorker.adopted > 0))
      throw new Error(`the rating intervals were not drawn in the worker: ${JSON.stringify(st.ratingsWorker)}`);
    const row = (m) => st.leaderboard.find((r) => r.name === m);
    // These two forfeit every game they play, except that when the arena pairs them with each
    // other (the continuous pairing depends on timing), whichever forfeits first hands the other
    // a win: each of their games must end in a forfeit, and a win only against the other.
    const doomed = ['mock/always-illegal', 'mock/stalled'];
    const nameOf = (p) => (st.leaderboard.find((x) => x.participant === p) || {}).name;
    for (const m of doomed) {
      const r = row(m);
      if (!r || r.games === 0) continue; // the arena may not have paired it within 10 games
      const mine = st.games.filter((g) => g.white === r.participant || g.black === r.participant);
      if (mine.length !== r.games) throw new Error(`${m}: ${mine.length} games listed, ${r.games} on the leaderboard`);
      for (const g of mine) {
        if (!g.termination.startsWith('forfeit')) throw new Error(`${m} game ${g.id} ended by ${g.termination}`);
        const asWhite = g.white === r.participant;
        const won = g.result === (asWhite ? '1-0' : '0-1');
        const opponent = nameOf(asWhite ? g.black : g.white);
        if (won && !doomed.includes(opponent)) throw new Error(`${m} won game ${g.id} against ${opponent}: ${g.termination} (${g.detail || 'no detail'}) after ${g.moves.length} moves`);
      }
      if (r.forfeits + r.wins !== r.games || r.draws !== 0) throw new Error(`${m} should forfeit every game: ${JSON.stringify(r)}`);
    }
    const illegal = row('mock/always-illegal');
    if (illegal && illegal.games > 0 && !(illegal.illegalPer100 > 0)) throw new Error('illegal attempts not counted');
    for (const m of ['mock/legal', 'mock/illegal-once', 'mock/ratelimit', 'mock/text-mode']) {
      if (row(m) && row(m).forfeits !== 0) throw new Error(`${m} should never forfeit: ${JSON.stringify(row(m))}`);
    }
    const forfeitGames = st.games.filter((g) => g.termination.startsWith('forfeit'));
    if (forfeitGames.length === 0) throw new Error('no forfeits at all');
    if (!forfeitGames.some((g) => g.termination === 'forfeit_timeout' || g.termination === 'forfeit_illegal_move'))
      throw new Error(`unexpected forfeit kinds: ${forfeitGames.map((g) => g.termination)}`);
    if (!(st.spentUsd > 0)) throw new Error('no spend counted');
    // The switch that leaves forfeit games out of the ratings and W/D/L.
    if (st.gamesRated !== 10) throw new Error(`${st.gamesRated} games rated of 10`);
    await page.evaluate(() => window.chaiba.arena.excludeForfeits(true));
    const without = await arena(page);
    if (without.gamesRated !== 10 - forfeitGames.length) throw new Error(`${without.gamesRated} rated without forfeits`);
    if (without.leaderboard.some((r) => r.games > 0 && r.name === 'mock/always-illegal'))
      throw new Error('a player who only forfeited still has rated games');
    await page.evaluate(() => window.chaiba.arena.excludeForfeits(false));
    await page.evaluate(() => window.chaiba.arena.tab('leaderboard'));
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shots, 'arena-leaderboard-1280x800.png') });

    // Export: no key; reset by clicks (with the confirmation); import reproduces the leaderboard.
    const json = await page.evaluate(() => window.chaiba.arena.exportJson());
    if (json.includes(mock.key)) throw new Error('the API key is in the exported bundle');
    const pgn = await page.evaluate(() => window.chaiba.arena.exportPgn());
    if ((pgn.match(/\[Event /g) || []).length !== 10) throw new Error('the PGN should hold the 10 games');
    const sessionSpent = (await arena(page)).sessionSpentUsd;
    if (!(sessionSpent > 0)) throw new Error(`the models' games cost nothing in the session: ${sessionSpent}`);
    const headerSpent = await sessionSpend(page);
    await clickItem(page, 'arena.reset');
    await clickItem(page, 'arena.reset.confirm');
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'setup', null, { timeout: 10000 });
    // Import as a person would: Import…, Choose a file…, the browser's file chooser.
    // (Under load one click on Import landed while the screen still changed after the reset.)
    await clickUntil(page, 'arena.import', () => !!window.chaiba.ui()['arena.import.file']);
    const chooser = page.waitForEvent('filechooser');
    chooser.catch(() => {}); // a failure before the chooser opens is reported by the awaits below, not as a crash
    await clickItem(page, 'arena.import.file');
    await (await chooser).setFiles({ name: 'chaiba-tournament.json', mimeType: 'application/json', buffer: Buffer.from(json) });
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 20000 }).catch(async (e) => {
      const s = await arena(page);
      throw new Error(`after the import: phase ${s.phase}, ${s.gamesFinished} games finished, error "${s.error || ''}" (${e.message})`);
    });
    const imported = await arena(page);
    if (imported.importedMatches !== true) {
      const diff = (imported.leaderboard || []).map((r, i) => Object.keys(r).filter((k) => JSON.stringify(r[k]) !== JSON.stringify((st.leaderboard[i] || {})[k]))
        .map((k) => `row ${i} ${k}: ${JSON.stringify(st.leaderboard[i][k])} -> ${JSON.stringify(r[k])}`)).flat();
      throw new Error('the imported leaderboard does not reproduce the stored one: ' + diff.slice(0, 6).join('; '));
    }
    if (JSON.stringify(imported.leaderboard) !== JSON.stringify(st.leaderboard))
      throw new Error('the imported leaderboard differs from the one shown before the export');
    // Reset + Import leave the session's spend as it was (it showed twice the real spend before).
    if (Math.abs(imported.sessionSpentUsd - sessionSpent) > 1e-9)
      throw new Error(`the session spend moved with the import: ${sessionSpent} -> ${imported.sessionSpentUsd}`);
    const headerImported = await sessionSpend(page);
    if (Math.abs(headerImported - headerSpent) > 1e-9)
      throw new Error(`the header's session spend moved with the import: ${headerSpent} -> ${headerImported}`);
    // The imported tournament keeps its own figure (what it cost when it was played).
    if (!(imported.spentUsd > 0)) throw new Error(`the imported tournament shows no spend: ${imported.spentUsd}`);
    // A garbage import is refused with a reason and changes nothing.
    const refused = await page.evaluate(() => { try { window.chaiba.arena.importJson('{"format": 7}'); return ''; } catch (e) { return e.message; } });
    if (!/import/.test(refused)) throw new Error(`garbage import not refused clearly: "${refused}"`);
    if ((await arena(page)).gamesFinished !== 10) throw new Error('a refused import changed the tournament');
    // A reload is a new session: the imported tournament comes back with its own spend, none of which
    // this session paid (the page counted it as spent now, as it did an import's before).
    await page.reload();
    await waitForFrames(page, 3);
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, { timeout: 20000 });
    const reloaded = await arena(page);
    if (Math.abs(reloaded.spentUsd - imported.spentUsd) > 1e-9 * Math.max(1, imported.spentUsd))
      throw new Error(`the reloaded tournament's spend ${reloaded.spentUsd} is not the imported ${imported.spentUsd}`);
    const headerReloaded = await sessionSpend(page);
    if (headerReloaded !== 0) throw new Error(`after a reload the session spend is ${headerReloaded}, paid by nobody here`);
    // The browser logs refused requests (429s, the slow model's aborted ones) itself.
    errors.errors.splice(0, errors.errors.length, ...errors.errors.filter((e) => !/status of 429|request failed|ERR_ABORTED/.test(e)));
    errors.check();
    await context.close();
  }],
]);
await browser.close();
mockServer.close();
await server.close();
