// Browser end-to-end tests of the Werewolf Arena against the built page, the native CLI and the
// local OpenRouter stand-in (tests/e2e/mock_modes/werewolf.py): without a key, a real click on
// the tab and on Start plays a bot tournament to the end whose games and leaderboard are exactly
// `chaiba werewolf`'s on the same players, rules, seed and games; a reload mid-tournament keeps the
// finished games, comes back paused and Resume plays the rest (still the CLI's games); stand-in
// models and bots play with tokens, $ and a spend that never goes down, the CLI's leaderboard on the
// same stand-in (the belief accuracy by round included, also after a reload), an export without
// the key; a budget cap stops the tournament. Screenshots at 1280x800.
// usage: node werewolf_arena_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startStaticServer, startMock, launchBrowser, runTests, clickItem, clickUntil, waitOrExplain, openPage as openPageAt } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const mockServer = await startMock(chaiba);
const mock = { baseUrl: mockServer.baseUrl, key: mockServer.key };
const browser = await launchBrowser();
const ww = (page) => page.evaluate(() => window.chaiba.werewolfArena.state());
// What a timed-out wait reports: the arena's phase, counts, error and notice.
const explain = () => {
  const s = window.chaiba.werewolfArena.state();
  return { phase: s.phase, gamesFinished: s.gamesFinished, live: (s.live || []).length, error: s.error, notice: s.notice };
};
const openPage = (context) => openPageAt(context, server.url);
const newContext = () => browser.newContext({ viewport: { width: 1280, height: 800 } });

// `chaiba werewolf` on the same setup (models through the stand-in): its summary.json and the
// games' results in its log (tournament.log: a checksum, a space, a record per line).
function cli(players, { games, seed, rules }, models = null) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ww-arena-'));
  const viaMock = models ? ['--base-url', models.baseUrl] : [];
  const env = models ? { ...process.env, OPENROUTER_API_KEY: models.key } : process.env;
  execFileSync(chaiba, ['werewolf', '--players', players, '--games', String(games), '--seed', String(seed),
    '--rules', rules, '--quiet', '--out', dir, ...viaMock], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  const results = [];
  for (const line of fs.readFileSync(path.join(dir, 'tournament.log'), 'utf8').split('\n')) {
    const record = line ? JSON.parse(line.slice(line.indexOf(' ') + 1)) : {};
    if (record.game) results[record.game.game - 1] = record.game;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { summary, results };
}

// Numbers equal to 1e-9 relative (the page and the CLI print the same doubles), other values exactly.
function sameValue(a, b, where) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))) throw new Error(`${where}: page ${a}, CLI ${b}`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (a !== b) throw new Error(`${where}: page ${JSON.stringify(a)}, CLI ${JSON.stringify(b)}`);
    return;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) sameValue(a[k], b[k], `${where}.${k}`);
}

function compareWithCli(st, players, setup, models = null) {
  const native = cli(players, setup, models);
  sameValue(st.leaderboard, native.summary.leaderboard, 'leaderboard');
  if (st.games.length !== native.results.length) throw new Error(`page ${st.games.length} games, CLI ${native.results.length}`);
  for (const g of st.games) {
    const r = native.results[g.game - 1];
    if (g.winner !== r.winner || g.rounds !== r.rounds || g.seed !== r.seed)
      throw new Error(`game ${g.game}: page ${g.winner}/${g.rounds} rounds/seed ${g.seed}, CLI ${r.winner}/${r.rounds}/${r.seed}`);
  }
  return native;
}

await runTests([
  ['no key: a real click plays a bot tournament to the end, with the CLI\'s games and leaderboard', async () => {
    const context = await newContext();
    const { page, errors } = await openPage(context);
    await clickItem(page, 'header.werewolf-arena');
    await page.waitForFunction(() => window.chaiba.werewolfArena.state().phase === 'setup', null, { timeout: 10000 });
    const fresh = await ww(page);
    if (fresh.hasKey || fresh.config.players.some((p) => p !== 'bot')) throw new Error('no key, yet models are proposed');
    if (fresh.config.players.length !== 8) throw new Error(`the default pool has ${fresh.config.players.length} seats`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-setup-1280x800.png') });
    const setup = { games: 16, seed: 7, rules: 'plain' };
    await page.evaluate((s) => window.chaiba.werewolfArena.setup({ players: ['bot*8'], concurrency: 3, ...s }), setup);
    await clickItem(page, 'wwarena.start');
    // The state at the moment a game is under way, taken in the same breath (bots play fast: read a
    // moment later, a loaded machine's tournament had already finished).
    const running = await (await page.waitForFunction(() => {
      const s = window.chaiba.werewolfArena.state();
      return s.live.some((g) => g.events > 10) ? s : false;
    }, null, { timeout: 60000 })).jsonValue();
    if (running.phase !== 'running') throw new Error(`after Start the phase is ${running.phase}: ${running.error}`);
    for (const g of running.live)
      if (!(g.alive >= 1 && g.alive <= 8 && g.round >= 0 && ['night', 'discussion', 'vote', 'over'].includes(g.phase)))
        throw new Error(`a live game looks wrong: ${JSON.stringify(g)}`);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-running-1280x800.png') });
    await waitOrExplain(page, () => window.chaiba.werewolfArena.state().phase === 'finished', explain, { timeout: 240000 });
    const st = await ww(page);
    if (st.gamesFinished !== 16 || st.games.length !== 16) throw new Error(`${st.gamesFinished} games finished`);
    compareWithCli(st, 'bot*8', setup);
    // While games ran the intervals went to the worker, never drawn on the page's thread (this
    // short run ends before a reply is due: at rest they are whole, equal to the CLI's above; the
    // chess arena's test sees replies of the same worker adopted).
    if (st.ratingsRefining || st.ratingsWorker.error || !(st.ratingsWorker.sent > 0))
      throw new Error(`the rating intervals were not sent to the worker: ${JSON.stringify(st.ratingsWorker)}`);
    const row = st.leaderboard[0];
    if (!(row.wolf_rating && row.villager_rating && row.wolf_rating.low <= row.wolf_rating.elo && row.wolf_rating.elo <= row.wolf_rating.high))
      throw new Error(`role ratings missing or outside their interval: ${JSON.stringify(row)}`);
    if (!(row.villager_votes > 0 && row.inspections > 0)) throw new Error(`deduction counts missing: ${JSON.stringify(row)}`);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-finished-1280x800.png') });
    await page.evaluate(() => window.chaiba.werewolfArena.tab('leaderboard'));
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-leaderboard-1280x800.png') });
    // Bad input is refused with the reason, and nothing is lost.
    const refused = await page.evaluate(() => {
      try { window.chaiba.werewolfArena.setup({ players: ['bot*3'] }); return null; } catch (e) { return String(e.message); }
    });
    if (!refused || !refused.includes('5 to 16 seats')) throw new Error(`a 3-seat pool was not refused clearly: ${refused}`);
    if ((await ww(page)).gamesFinished !== 16) throw new Error('a refused setup lost the tournament');
    errors.check();
    await context.close();
  }],

  ['the kaggle preset picked with a real click: the page\'s bot games are chaiba werewolf --rules kaggle\'s', async () => {
    const context = await newContext();
    const { page, errors } = await openPage(context);
    await clickItem(page, 'header.werewolf-arena');
    await page.waitForFunction(() => window.chaiba.werewolfArena.state().phase === 'setup', null, { timeout: 10000 });
    const setup = { games: 12, seed: 5, rules: 'kaggle' };
    await page.evaluate(() => window.chaiba.werewolfArena.setup({ players: ['bot*8'], games: 12, seed: 5, concurrency: 2 }));
    await clickUntil(page, 'wwarena.rules.kaggle', () => window.chaiba.werewolfArena.state().config.rules === 'kaggle');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-setup-kaggle-1280x800.png') });
    await clickItem(page, 'wwarena.start');
    await waitOrExplain(page, () => window.chaiba.werewolfArena.state().phase === 'finished', explain, { timeout: 240000 });
    const st = await ww(page);
    if (st.gamesFinished !== 12) throw new Error(`${st.gamesFinished} games finished`);
    compareWithCli(st, 'bot*8', setup); // the draws (ties, first speakers) come from the game's seed alike
    errors.check();
    await context.close();
  }],

  ['a reload keeps the finished games, comes back paused; Resume plays the rest as the CLI does', async () => {
    const context = await newContext();
    const { page, errors } = await openPage(context);
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    const setup = { games: 24, seed: 11, rules: 'balanced' };
    await page.evaluate((s) => window.chaiba.werewolfArena.setup({ players: ['bot*9'], concurrency: 1, ...s }), setup);
    await page.evaluate(() => window.chaiba.werewolfArena.start());
    await waitOrExplain(page, () => window.chaiba.werewolfArena.state().gamesFinished >= 3, explain, { timeout: 120000 });
    await page.evaluate(() => window.chaiba.werewolfArena.pause());
    const before = await ww(page);
    if (before.gamesFinished >= 24) throw new Error('the tournament ended before the reload: make it longer');
    errors.reloading(true); // the engine worker (the ratings' intervals) may still be loading its file
    await page.reload();
    await page.waitForFunction(() => window.chaiba && window.chaiba.ready, null, { timeout: 60000 });
    errors.reloading(false);
    const after = await ww(page);
    if (after.phase !== 'paused') throw new Error(`after the reload the phase is ${after.phase}: ${after.error}`);
    // Their replays' records come back from the store a moment later (read in the background).
    const results = (games) => games.map(({ replay, ...game }) => game);
    sameValue(results(after.games), results(before.games), 'kept games');
    if (!before.games.every((g) => g.replay)) throw new Error('a finished game has no replay before the reload');
    await waitOrExplain(page, () => window.chaiba.werewolfArena.state().games.every((g) => g.replay),
      () => window.chaiba.werewolfArena.state().games.map((g) => g.replay), { timeout: 20000 });
    if (!after.notice.includes('Paused after a reload')) throw new Error(`no word about the reload: ${after.notice}`);
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    // Resume is clicked until the arena runs: one click while the screen settles after the reload
    // could miss it under load, or land on its neighbour Stop (CI once waited 240 s for the end of
    // a tournament that did not run).
    await clickUntil(page, 'wwarena.resume', () => ['running', 'finished'].includes(window.chaiba.werewolfArena.state().phase), { explain });
    await waitOrExplain(page, () => window.chaiba.werewolfArena.state().phase === 'finished', explain, { timeout: 240000 });
    compareWithCli(await ww(page), 'bot*9', setup);
    errors.check();
    await context.close();
  }],

  ['a tab killed mid-tournament loses no game it reported; resumed, the games are the CLI\'s', async () => {
    const context = await newContext();
    let { page } = await openPage(context);
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    const setup = { games: 40, seed: 21, rules: 'plain' };
    await page.evaluate((s) => window.chaiba.werewolfArena.setup({ players: ['bot*8'], concurrency: 2, ...s }), setup);
    await page.evaluate(() => window.chaiba.werewolfArena.start());
    // Watch what is reported (a game is shown once IndexedDB confirmed it), then crash the renderer.
    let reported = [];
    for (let i = 0; i < 3000 && reported.length < 6; i++) {
      const ids = (await ww(page)).games.map((g) => g.game);
      if (ids.length < reported.length) throw new Error('a reported game disappeared while running');
      reported = ids;
      await page.waitForTimeout(10);
    }
    if (reported.length < 6 || reported.length >= setup.games) throw new Error(`${reported.length} games reported before the crash`);
    const cdp = await context.newCDPSession(page);
    await Promise.race([cdp.send('Page.crash').catch(() => {}), new Promise((r) => setTimeout(r, 3000))]);
    await page.close().catch(() => {}); // the renderer died: no unload, no last write
    const reopened = await openPage(context);
    page = reopened.page;
    const back = await ww(page);
    const kept = new Set(back.games.map((g) => g.game));
    const lost = reported.filter((g) => !kept.has(g));
    if (lost.length) throw new Error(`games reported before the crash were lost: ${lost.join(', ')}`);
    if (back.phase !== 'paused') throw new Error(`after the crash the phase is ${back.phase}: ${back.error}`);
    console.log(`     reported before the crash: ${reported.length}; kept: ${kept.size}`);
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    await page.evaluate(() => window.chaiba.werewolfArena.resume());
    await waitOrExplain(page, () => window.chaiba.werewolfArena.state().phase === 'finished', explain, { timeout: 240000 });
    compareWithCli(await ww(page), 'bot*8', setup); // every game once, each the CLI's
    reopened.errors.check();
    await context.close();
  }],

  ['stand-in models and bots: tokens, $, a spend that never goes down, an export without the key', async () => {
    const context = await newContext();
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    await page.waitForFunction(() => window.chaiba.werewolfArena.state().hasKey, null, { timeout: 10000 });
    const pool = ['llm:mock/wolf-smart', 'llm:mock/wolf-tools', 'llm:mock/wolf-text', 'bot*5'];
    const setup = { games: 3, seed: 3, rules: 'balanced' };
    await page.evaluate(([players, s]) => window.chaiba.werewolfArena.setup({
      players, concurrency: 3, budgetUsd: 5, ...s }), [pool, setup]);
    // The prices come with the model catalog, fetched once the key is set: until then the
    // screen says it is loading them.
    await page.waitForFunction(() => window.chaiba.werewolfArena.state().catalog !== 'loading',
      null, { timeout: 20000 });
    const draft = await ww(page);
    if (!(draft.estimate.usd > 0 && draft.estimate.modelSeatGames === 9)) throw new Error(`no cost estimate: ${JSON.stringify(draft.estimate)}`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-setup-models-1280x800.png') });
    await page.evaluate(() => window.chaiba.werewolfArena.start());
    let last = 0, shot = false;
    for (;;) {
      const st = await ww(page);
      if (st.spentUsd < last) throw new Error(`the spend went down: ${last} -> ${st.spentUsd}`);
      last = st.spentUsd;
      if (!shot && st.live.some((g) => g.costUsd > 0)) {
        await page.screenshot({ path: path.join(shots, 'werewolf-arena-models-running-1280x800.png') });
        shot = true;
      }
      if (st.phase !== 'running') break;
      await page.waitForTimeout(250);
    }
    const st = await ww(page);
    if (st.phase !== 'finished' || st.gamesFinished !== 3) throw new Error(`ended ${st.phase} with ${st.gamesFinished} games: ${st.error}`);
    for (const model of ['llm:mock/wolf-smart', 'llm:mock/wolf-tools', 'llm:mock/wolf-text']) {
      const row = st.leaderboard.find((r) => r.player === model);
      if (!row || !(row.tokens > 0 && row.cost_usd > 0 && row.asks > 0 && row.games === 3)) throw new Error(`${model}: ${JSON.stringify(row)}`);
      if (!row.rating) throw new Error(`${model} has no overall rating`);
    }
    const bot = st.leaderboard.find((r) => r.player === 'bot');
    if (!bot || bot.games !== 15 || bot.tokens !== 0) throw new Error(`bot row: ${JSON.stringify(bot)}`);
    if (!(st.spentUsd > 0)) throw new Error('nothing was spent');
    // The belief accuracy by round: there is some in two rounds or more, each round's count adds up
    // to the overall one, and the page's rows (every number, per-round ones included) are the CLI's
    // on the same stand-in.
    const rounds = (r) => (r.beliefs_by_round || []).filter((n) => n > 0).length;
    if (!st.leaderboard.some((r) => rounds(r) >= 2)) throw new Error(`no beliefs in two rounds: ${JSON.stringify(st.leaderboard)}`);
    for (const r of st.leaderboard) {
      const sum = (r.beliefs_by_round || []).reduce((a, n) => a + n, 0);
      if (sum !== r.beliefs || (r.belief_accuracy_by_round || []).length !== (r.beliefs_by_round || []).length)
        throw new Error(`${r.player}: beliefs by round ${JSON.stringify(r.beliefs_by_round)} vs ${r.beliefs} overall`);
    }
    compareWithCli(st, pool.join(','), setup, mock);
    await page.evaluate(() => window.chaiba.werewolfArena.tab('leaderboard'));
    await page.waitForTimeout(400);
    const items = await page.evaluate(() => window.chaiba.ui());
    const table = items['wwarena.beliefRounds'], above = items['wwarena.deduction'];
    if (!table || !above || !(table[1] >= above[1] + above[3]) || !(table[3] > 60))
      throw new Error(`the belief-by-round table is not drawn under the deduction table: ${JSON.stringify([table, above])}`);
    // Ratings by role: a table of its own, and per row the games by role add up to the row's games.
    if (!items['wwarena.roles']) throw new Error('no ratings-by-role table');
    for (const r of st.leaderboard) {
      const byRole = ['seer', 'doctor', 'werewolf', 'villager'].reduce((n, role) => n + r.role_ratings[role].games, 0);
      if (byRole !== r.games) throw new Error(`${r.player}: ${byRole} games by role of ${r.games}`);
    }
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-models-leaderboard-1280x800.png') });
    const bundle = await page.evaluate(() => window.chaiba.werewolfArena.exportJson());
    if (bundle.includes(mockServer.key)) throw new Error('the export holds the API key');
    const doc = JSON.parse(bundle);
    if (doc.format !== 'chaiba-werewolf-arena' || doc.games.length !== 3) throw new Error(`bad bundle: ${bundle.slice(0, 200)}`);
    sameValue(doc.leaderboard, st.leaderboard, 'bundle leaderboard');
    if (doc.version !== 3 || doc.records.length !== 3) throw new Error(`the bundle is version ${doc.version} with ${(doc.records || []).length} records`);
    // The per-round figures are kept in the browser: after a reload they still match the CLI's.
    await page.reload();
    await page.waitForFunction(() => window.chaiba && window.chaiba.ready, null, { timeout: 60000 });
    const reloaded = await ww(page);
    if (reloaded.gamesFinished !== 3) throw new Error(`after the reload ${reloaded.gamesFinished} games`);
    sameValue(reloaded.leaderboard, st.leaderboard, 'leaderboard after a reload');
    errors.check();
    await context.close();
    // The bundle imported into another browser (no key there): the same games and leaderboard; a
    // tampered one is refused with the game it names, and the shown tournament stays.
    const other = await newContext();
    const { page: elsewhere, errors: otherErrors } = await openPage(other);
    await elsewhere.evaluate(() => window.chaiba.show('werewolf-arena'));
    await elsewhere.evaluate((b) => window.chaiba.werewolfArena.importJson(b), bundle);
    const imported = await ww(elsewhere);
    if (imported.phase !== 'finished' || imported.gamesFinished !== 3) throw new Error(`imported: ${imported.phase}, ${imported.gamesFinished} games`);
    sameValue(imported.games, st.games, 'imported games');
    sameValue(imported.leaderboard, st.leaderboard, 'imported leaderboard');
    const tampered = JSON.parse(bundle);
    tampered.games[1].winner = 'martians';
    const refused = await elsewhere.evaluate((b) => { try { window.chaiba.werewolfArena.importJson(b); return ''; } catch (e) { return e.message; } }, tampered);
    if (!refused.includes('games[1]') || !refused.includes('martians')) throw new Error(`a tampered bundle: "${refused}"`);
    sameValue((await ww(elsewhere)).games, st.games, 'games after a refused import');
    otherErrors.check();
    await other.close();
  }],

  ['a budget cap stops the tournament: no new game once reached', async () => {
    const context = await newContext();
    const { page, errors } = await openPage(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    await page.evaluate(() => window.chaiba.werewolfArena.setup({
      players: ['llm:mock/wolf-smart', 'llm:mock/wolf-tools', 'bot*6'], games: 6, seed: 5, concurrency: 1,
      budgetUsd: 0.005 }));
    await page.evaluate(() => window.chaiba.werewolfArena.start());
    await page.waitForFunction(() => window.chaiba.werewolfArena.state().phase !== 'running', null, { timeout: 240000 });
    const st = await ww(page);
    if (st.phase !== 'stopped' || !st.budgetReached) throw new Error(`ended ${st.phase}, budgetReached ${st.budgetReached}: ${st.error}`);
    if (!(st.gamesFinished >= 1 && st.gamesFinished < 6)) throw new Error(`${st.gamesFinished} games finished under the cap`);
    if (!(st.spentUsd >= 0.005)) throw new Error(`spent ${st.spentUsd}`);
    if (!st.notice.includes('budget cap')) throw new Error(`the stop is not explained: ${st.notice}`);
    const refused = await page.evaluate(() => {
      try { window.chaiba.werewolfArena.resume(); return null; } catch (e) { return String(e.message); }
    });
    if (!refused || !refused.includes('budget cap')) throw new Error(`Resume over the cap was not refused clearly: ${refused}`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-budget-1280x800.png') });
    errors.check();
    await context.close();
  }],
]);

await browser.close();
mockServer.close();
await server.close();
