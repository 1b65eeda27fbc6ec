// Browser tests of the Werewolf screen (window.chaiba.werewolf): a bot game to the end (the page's
// default without a key), a full 8-seat LLM game against the local stand-in, a reload mid-game
// (comes back paused, resumes to the end), a person in a villager's seat sees no wolf chat, export
// then import gives the same game, a corrupt stored game gives a message (and is kept aside), a
// person plays to death and spectates, and the replay viewer opens this game, a CLI game file and
// an arena game.
// usage: node werewolf_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { startStaticServer, startMock, launchBrowser, runTests, longestFirst, openPage, clickItem, clickUntil, typeFast } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });

const server = await startStaticServer(site);
const mockServer = await startMock(chaiba);
const mock = { baseUrl: mockServer.baseUrl, key: mockServer.key };
const browser = await launchBrowser();

const state = (page) => page.evaluate(() => window.chaiba.werewolf.state());
const cmd = (page, name, arg) => page.evaluate(([n, a]) => window.chaiba.werewolf.command(n, a), [name, arg]);
const expect = (cond, what) => { if (!cond) throw new Error(what); };

async function openWerewolf(context) {
  const opened = await openPage(context, server.url);
  await opened.page.evaluate(() => window.chaiba.show('werewolf'));
  await opened.page.waitForFunction(() => window.chaiba.werewolf.state().phase !== undefined, null, { timeout: 30000 });
  return opened;
}
const waitFinished = (page, timeout) => page.waitForFunction(() => {
  const s = window.chaiba.werewolf.state();
  return s.finished && s.shown_events === s.events;
}, null, { timeout });

// Deals new tables until P1, a person (a villager when `villager`), is alive and asked to speak in
// the first discussion; the game is left there at speed 0.
async function dealToDiscussion(page, villager) {
  for (let seed = 1; seed < 80; seed++) {
    await cmd(page, 'newGame', { players: ['human', ...Array(7).fill('bot')], seed });
    await cmd(page, 'setSpeed', 0);
    await cmd(page, 'start');
    await page.waitForFunction(() => {
      const s = window.chaiba.werewolf.state();
      return s.finished || !s.seats[0].alive || (s.person.awaiting || []).some((a) => a.kind === 'speak');
    }, null, { timeout: 60000 });
    const s = await state(page);
    if (s.seats[0].alive && s.person.awaiting.some((a) => a.kind === 'speak') && (!villager || s.seats[0].role === 'Villager'))
      return seed;
  }
  throw new Error('no seed gives ' + (villager ? 'a villager' : 'a living') + ' P1 at the first discussion');
}

// Deals new tables until P1, a person, is the Doctor (a night action; no self-save under the
// balanced rules), the game left unstarted.
async function dealDoctor(page) {
  for (let seed = 1; seed < 80; seed++) {
    await cmd(page, 'newGame', { players: ['human', ...Array(7).fill('bot')], seed });
    if ((await state(page)).seats[0].role === 'Doctor') return seed;
  }
  throw new Error('no seed gives P1 the Doctor');
}
const awaits = (page, kind) => page.waitForFunction((k) =>
  (window.chaiba.werewolf.state().person.awaiting || []).some((a) => a.kind === k), kind, { timeout: 120000 });
const replayState = async (page) => (await state(page)).replay;

// A whole game as a person, the Doctor P1: the night action clicked, a line typed in the
// first day's discussion at 1x (claiming the Seer: the bots' wolves hunt a revealed Seer), a vote
// clicked, then the rest at full speed until P1 is out; `phone`: the chat and table tabs between.
async function playUntilOut(page, phone) {
  await dealDoctor(page);
  await cmd(page, 'setSpeed', 0); // the deal at once, then 1x from the first night's action on
  await cmd(page, 'start');
  await awaits(page, 'protect');
  await cmd(page, 'setSpeed', 1);
  const protect = (await state(page)).person.awaiting.find((a) => a.kind === 'protect');
  await page.waitForTimeout(800); // the buttons ignore clicks in their first 0.7 s
  await clickUntil(page, 'werewolf.act.' + protect.targets[0],
    () => !(window.chaiba.werewolf.state().person.awaiting || []).some((a) => a.kind === 'protect'));
  await awaits(page, 'speak');
  if (phone) await clickUntil(page, 'werewolf.tab.chat', () => window.chaiba.werewolf.state().phoneView === 'chat');
  const line = 'I am the Seer. P3 is a wolf, I saw it last night.';
  await clickItem(page, 'werewolf.say');
  await page.keyboard.type(line, { delay: 60 });
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => window.chaiba.werewolf.state().chat.some((c) => c.seat === 'P1' && c.text === t &&
    c.round === 1 && !c.wolves), line, { timeout: 20000 });
  await cmd(page, 'setSpeed', 0); // the rest of the day at once: the vote waits for the person
  await cmd(page, 'humanPass');
  await awaits(page, 'vote');
  if (phone) await clickUntil(page, 'werewolf.tab.table', () => window.chaiba.werewolf.state().phoneView === 'table');
  const vote = (await state(page)).person.awaiting.find((a) => a.kind === 'vote');
  await page.waitForTimeout(800);
  await clickUntil(page, 'werewolf.act.' + vote.targets[0],
    (t) => window.chaiba.werewolf.state().votes.some((v) => v.voter === 'P1' && v.target === t), { arg: vote.targets[0] });
  for (let i = 0; i < 600; i++) {
    const s = await state(page);
    if (s.person.out || s.finished) break;
    for (const a of s.person.awaiting || []) {
      const act = a.kind === 'vote' ? ['humanVote', { target: a.targets[0] }]
        : a.kind === 'speak' ? ['humanPass'] : ['humanTarget', { target: a.targets[0] }];
      await cmd(page, ...act).catch(() => {}); // (a pass already given, a decision already in)
    }
    await page.waitForTimeout(100);
  }
  return line;
}

// Out of the game: the view turns to everything (wolf chat included), any seat may be chosen; at
// the end the replay opens at the last event and "<< Day" clicks step back to day 1, where the
// person's line comes whole in its phase.
async function spectateAndReplay(page, line, shotName) {
  const out = await state(page);
  expect(out.person.out, 'P1 survived the game: ' + out.winner);
  await page.waitForFunction(() => window.chaiba.werewolf.state().pov === 'spectator', null, { timeout: 10000 });
  const spectating = await state(page);
  expect(spectating.seats.every((s) => s.role), 'the spectator sees every role');
  await cmd(page, 'setPov', 'P2');
  expect((await state(page)).pov === 'P2', 'the view could not be turned to P2 after death');
  await cmd(page, 'setPov', 'spectator');
  await page.screenshot({ path: path.join(shots, `werewolf-spectator-${shotName}.png`) });
  await waitFinished(page, 120000);
  await clickUntil(page, 'werewolf.replay', () => window.chaiba.werewolf.state().replay.open);
  let r = await replayState(page);
  expect(r.index === r.events - 1 && r.moment === 'Game over' && r.pov === 'all', 'the replay opens at the end: ' + r.moment);
  for (let i = 0; i < 12 && r.moment !== 'Day 1'; i++) {
    await clickUntil(page, 'werewolf.replay.prevDay', (at) => window.chaiba.werewolf.state().replay.index !== at, { arg: r.index });
    r = await replayState(page);
  }
  expect(r.moment === 'Day 1' && r.round === 1 && r.phase === 'discussion', 'back at day 1: ' + r.moment);
  expect(!r.chat.some((c) => c.seat === 'P1' && !c.wolves), 'the start of day 1 already has P1\'s line');
  expect(r.alive.includes('P1'), 'P1 is alive at day 1');
  for (let i = 0; i < 60 && !r.chat.some((c) => c.seat === 'P1'); i++) {
    await cmd(page, 'replayStep', { by: 1 });
    r = await replayState(page);
  }
  const said = r.chat.find((c) => c.seat === 'P1');
  expect(said && said.text === line && said.round === 1 && r.moment === 'Day 1', 'the line replays whole in day 1: ' + JSON.stringify(said));
  await clickUntil(page, 'werewolf.replay.forward', (at) => window.chaiba.werewolf.state().replay.index === at + 1, { arg: r.index });
  await cmd(page, 'replayPov', 'P1');
  r = await replayState(page);
  expect(r.pov === 'P1' && !r.chat.some((c) => c.wolves) && r.roles.P1 === 'Doctor', 'P1\'s view of the replay');
  await page.screenshot({ path: path.join(shots, `werewolf-replay-${shotName}.png`) });
  await clickUntil(page, 'werewolf.replay.close', () => !window.chaiba.werewolf.state().replay.open);
}

const tests = [
  ['a bot game without a key plays to the end', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    const s0 = await state(page);
    expect(s0.seats.length === 8 && s0.seats.every((s) => s.player === 'bot'), 'the default table is 8 bots');
    expect(s0.paused && s0.events > 0 && s0.shown_events === 0, 'a new game waits for Start');
    expect(s0.speed === 1, 'the page starts at 1x: ' + s0.speed);
    await cmd(page, 'start');
    // Start at the default 1x shows the events one by one (~0.9 s each), then 16x up to the 13th.
    await page.waitForFunction(() => window.chaiba.werewolf.state().shown_events >= 2, null, { timeout: 60000 });
    await cmd(page, 'setSpeed', 16);
    await page.waitForFunction(() => window.chaiba.werewolf.state().shown_events > 12, null, { timeout: 60000 });
    await page.screenshot({ path: path.join(shots, 'werewolf-bots-1280x800.png') });
    await cmd(page, 'setSpeed', 0);
    await waitFinished(page, 120000);
    const s = await state(page);
    expect(s.winner === 'wolves' || s.winner === 'villagers', 'a team won: ' + s.winner);
    expect(s.chat.some((c) => c.wolves), 'the spectator sees the wolf chat');
    expect(s.votes.length > 0, 'votes were cast');
    await page.screenshot({ path: path.join(shots, 'werewolf-bots-over-1280x800.png') });
    // The model-call window of a table of bots says why it stays empty.
    await clickUntil(page, 'werewolf.calls', () => !!window.chaiba.ui()['debug.empty'],
      { explain: () => Object.keys(window.chaiba.ui()).filter((k) => k.startsWith('debug')) });
    await page.keyboard.press('Escape');
    errors.check();
    await context.close();
  }],
  ['New game seats models picked from the catalog with their prices', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await page.waitForFunction(() => window.chaiba.arena.state().catalog === 'ready', null, { timeout: 20000 });
    await clickItem(page, 'werewolf.newGame');
    // The picker's search box takes the keyboard as it opens (the page then captures the keys).
    await clickUntil(page, 'werewolf.new.model', () => !!Module.chaibaKeyboardCaptured);
    await typeFast(page, 'wolf-tools');
    await page.waitForFunction(() => !!window.chaiba.ui()['model.mock/wolf-tools'], null, { timeout: 10000 })
      .catch(async () => { await page.screenshot({ path: path.join(shots, 'werewolf-model-picker-1280x800.png') }); throw new Error('the model picker does not list the catalog'); });
    await page.screenshot({ path: path.join(shots, 'werewolf-model-picker-1280x800.png') });
    await clickUntil(page, 'model.mock/wolf-tools', () => (window.chaiba.werewolf.state().new_game || {}).model === 'mock/wolf-tools',
      { explain: () => window.chaiba.werewolf.state().new_game });
    // Until the dialog's seats are the model (a click lost on a loaded machine left them bots).
    await clickUntil(page, 'werewolf.new.allLlm',
      () => { const n = window.chaiba.werewolf.state().new_game; return !!n && n.players.every((p) => p === 'llm:mock/wolf-tools'); },
      { explain: () => window.chaiba.werewolf.state().new_game });
    const allLlm = (await page.evaluate(() => window.chaiba.ui()))['werewolf.new.allLlm'];
    await page.mouse.move(allLlm[0], allLlm[1] + 300); // below the seats' own scrolling table
    await page.mouse.wheel(0, 1500); // Start at the dialog's foot
    await page.waitForTimeout(300);
    await clickUntil(page, 'werewolf.new.start', () => !window.chaiba.ui()['werewolf.new.start']);
    await page.waitForFunction(() => window.chaiba.werewolf.state().seats.every((s) => s.player === 'llm:mock/wolf-tools'),
      null, { timeout: 10000 }).catch(async () => { await page.screenshot({ path: '/tmp/ww-after.png' }); throw new Error('the seats did not get the model picked: ' + JSON.stringify((await state(page)).seats)); });
    errors.check();
    await context.close();
  }],

  ['a full 8-seat LLM game against the stand-in plays to the end', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    const models = ['mock/wolf-smart', 'mock/wolf-tools', 'mock/wolf-text', 'mock/wolf-smart',
      'mock/wolf-tools', 'mock/wolf-text', 'mock/wolf-smart', 'mock/wolf-tools'];
    await cmd(page, 'newGame', { players: models.map((m) => 'llm:' + m), seed: 3 });
    await cmd(page, 'setSpeed', 0);
    await cmd(page, 'start');
    await page.waitForFunction(() => window.chaiba.werewolf.state().round >= 2, null, { timeout: 240000 });
    await cmd(page, 'selectPlayer', 'P2');
    await page.screenshot({ path: path.join(shots, 'werewolf-llm-1280x800.png') });
    await waitFinished(page, 400000);
    const s = await state(page);
    expect(s.winner === 'wolves' || s.winner === 'villagers', 'a team won: ' + s.winner);
    expect(s.tokens > 0, 'the models used tokens');
    expect(s.chat.filter((c) => !c.wolves).length > 0, 'the models talked');
    // The export replays from the recorded answers alone: without a key no new call could succeed.
    const text = await cmd(page, 'exportJson');
    expect(!text.includes(mock.key), 'the export holds no key');
    await page.evaluate(() => window.chaiba.configure({ apiKey: '' }));
    await cmd(page, 'newGame', { players: Array(8).fill('bot'), seed: 4 });
    await cmd(page, 'importJson', { text });
    await page.waitForFunction(() => { const x = window.chaiba.werewolf.state(); return !x.restoring && x.finished; },
      null, { timeout: 120000 });
    const again = await state(page);
    expect(again.events === s.events && again.winner === s.winner, `the imported LLM game is the same game (${again.events}/${s.events} events, ${again.winner}/${s.winner}, ${again.fallbacks} fallbacks, ${again.message}, ${again.answers_unreplayed} of ${again.answers_recorded} unreplayed)`);
    expect(JSON.stringify(again.chat) === JSON.stringify(s.chat), 'the imported chat is the same');
    expect(again.fallbacks === 0, 'the replay needed no model call');
    errors.check();
    await context.close();
  }],
  ['a reload mid-game comes back paused and resumes to the end', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await openWerewolf(context);
    await cmd(page, 'newGame', { players: Array(8).fill('bot'), seed: 11 });
    await cmd(page, 'setSpeed', 16);
    await cmd(page, 'start');
    await page.waitForFunction(() => window.chaiba.werewolf.state().round >= 2, null, { timeout: 60000 });
    await cmd(page, 'pause');
    const before = await state(page);
    expect(!before.finished, 'still running when reloaded');
    await page.reload();
    await page.waitForFunction(() => window.chaiba && window.chaiba.ready, null, { timeout: 60000 });
    await page.waitForFunction(() => { const s = window.chaiba.werewolf.state(); return !s.restoring && s.events > 0; },
      null, { timeout: 60000 });
    const after = await state(page);
    expect(after.paused, 'the restored game is paused');
    expect(after.events === before.events, `the restored game has the same events (${after.events} vs ${before.events})`);
    expect(JSON.stringify(after.chat) === JSON.stringify(before.chat), 'the restored chat is the same');
    expect(/restored/i.test(after.message), 'the screen says it was restored: ' + after.message);
    await cmd(page, 'setSpeed', 0);
    await cmd(page, 'start');
    await waitFinished(page, 120000);
    expect((await state(page)).winner, 'the resumed game ended with a winner');
    await context.close();
  }],
  ['a person in a villager seat sees no wolf chat', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    // Find a seed where P1 is a plain villager (the deal is data: read it from the spectator view).
    let seed = 1;
    for (; seed < 60; seed++) {
      await cmd(page, 'newGame', { players: Array(8).fill('bot'), seed });
      if ((await state(page)).seats[0].role === 'Villager') break;
    }
    await cmd(page, 'newGame', { players: ['human', ...Array(7).fill('bot')], seed });
    const s0 = await state(page);
    expect(s0.pov === 'P1' && s0.seats[0].role === 'Villager', 'the person is the villager P1');
    expect(s0.seats.slice(1).every((s) => !s.role), 'the person does not see the others\' roles');
    await cmd(page, 'setSpeed', 0);
    await cmd(page, 'start');
    // The villager's view is checked while they are in the game: once out (this table votes P1 out
    // on day 1), the page turns to the spectator's view of everything, wolf chat included, as it
    // should (the "plays to death" cases check that view). Polled slower than the rest of the game
    // ran, the old loop saw only the end; on a busy machine it saw the spectator.
    let said = false, checkedDays = 0, lastCheckedRound = 0;
    for (let i = 0; i < 400; i++) {
      const s = await state(page);
      if (s.finished) break;
      const a = s.person && s.person.awaiting;
      if (a && a.length) {
        const vote = a.find((x) => x.kind === 'vote');
        const speak = a.find((x) => x.kind === 'speak');
        if (vote) await cmd(page, 'humanVote', { target: vote.targets[0] });
        else if (speak && !said) {
          await cmd(page, 'humanSay', { text: 'I am a simple villager. Who did it?' });
          await cmd(page, 'humanPass'); // done for today: a quiet round lets the vote come
          said = true;
        }
      }
      if (s.phase === 'night') said = false;
      if (!s.person.out) {
        expect(s.pov === 'P1', 'the view is the villager\'s: ' + s.pov);
        expect(!s.chat.some((c) => c.wolves), `no wolf chat reaches the villager (round ${s.round} ${s.phase}: ` +
          `${JSON.stringify(s.chat.find((c) => c.wolves))})`);
        if (s.phase !== 'night' && s.round >= 1) { checkedDays++; lastCheckedRound = s.round; }
      }
      expect(!/wolves only/i.test(s.person.context), 'the seat context holds no wolf chat');
      await page.waitForTimeout(150);
    }
    const s = await state(page);
    expect(s.chat.some((c) => c.seat === 'P1'), 'the person spoke in the day chat');
    expect(checkedDays > 0, 'the villager\'s view was never checked in a day');
    // The wolves did talk in a night the villager lived through: the spectator's view (P1 out) shows it.
    if (s.person.out) expect(s.chat.some((c) => c.wolves && c.round <= lastCheckedRound), 'no wolf chat while P1 was in the game');
    await page.screenshot({ path: path.join(shots, 'werewolf-person-1280x800.png') });
    errors.check();
    await context.close();
  }],
  ['a person types slowly at 1x: the day waits, the line is posted whole, a draft never moves phase', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    await dealToDiscussion(page, true); // P1, a villager, alive in the first day's discussion
    await cmd(page, 'setSpeed', 1);
    // Typed at a person's pace: ~14 s, longer than two of the day's 5 s rounds.
    const line = 'I was awake all night and heard P3 by the well. P3, where were you?';
    await clickItem(page, 'werewolf.say');
    await page.keyboard.type(line, { delay: 200 });
    const typing = await state(page);
    expect(typing.person.composing, 'typing is not seen as composing');
    expect(typing.person.awaiting.some((a) => a.kind === 'speak'), 'the discussion ended while the person typed');
    expect(typing.person.draft === line, 'the box lost letters: ' + typing.person.draft);
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => window.chaiba.werewolf.state().chat.some((c) => c.seat === 'P1' && c.text === t),
      line, { timeout: 20000 });
    // A draft left in the box when the phase moves on is set aside, never posted in the vote.
    await clickItem(page, 'werewolf.say');
    await page.keyboard.type('half a thought', { delay: 20 });
    await page.mouse.click(5, 790); // away from the box: the clock runs again
    await cmd(page, 'setSpeed', 0); // the rest of the day at once (the draft is set aside by the phase, not the pace)
    await cmd(page, 'humanPass');
    await page.waitForFunction(() => (window.chaiba.werewolf.state().person.awaiting || []).some((a) => a.kind === 'vote'),
      null, { timeout: 60000 });
    const voting = await state(page);
    expect(voting.person.unsentDraft === 'half a thought' && voting.person.draft === '', 'the draft moved into the vote: ' +
      JSON.stringify(voting.person));
    expect(!voting.chat.some((c) => c.text.includes('half a thought')), 'the unsent draft was posted');
    await page.screenshot({ path: path.join(shots, 'werewolf-person-vote-1280x800.png') });
    errors.check();
    await context.close();
  }],
  ['at 1x a person\'s turn shows once the table has told what happened: the day\'s box after the dawn, not during the night', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    // A villager P1: nothing to do at night, asked to speak once day 1 opens.
    let seed = 1;
    for (; seed < 80; seed++) {
      await cmd(page, 'newGame', { players: ['human', ...Array(7).fill('bot')], seed });
      if ((await state(page)).seats[0].role === 'Villager') break;
    }
    await cmd(page, 'setSpeed', 1);
    await cmd(page, 'start');
    // Until the box shows: was the person asked while the view still told the night (the gate)?
    let waited = false;
    const found = await page.waitForFunction(() => {
      const u = window.chaiba.ui(), s = window.chaiba.werewolf.state();
      const asked = (s.person.awaiting || []).some((a) => a.kind === 'speak');
      if (asked && u['werewolf.person.waiting']) window.chaibaTurnWaited = true;
      return u['werewolf.say'] ? { shown: s.shown_events, events: s.events, waited: !!window.chaibaTurnWaited } : false;
    }, null, { timeout: 60000, polling: 50 });
    const at = await found.jsonValue();
    waited = at.waited;
    const exported = JSON.parse(await cmd(page, 'exportJson'));
    const log = exported.game.events.slice(0, at.events);
    const opened = log.map((e) => e.kind).lastIndexOf('phase_start');
    const dawn = log.findIndex((e) => e.kind === 'dawn_death' || e.kind === 'dawn_no_death');
    expect(opened >= 0 && log[opened].phase === 'discussion', `seed ${seed}: the box showed in ${log[opened] && log[opened].phase}`);
    expect(at.shown > opened && at.shown > dawn,
      `seed ${seed}: the day's box showed with ${at.shown} of ${at.events} events told, the day opens at event ${opened}, the dawn at ${dawn}`);
    // The gate was met: the session asked before the view had told the dawn (else this test
    // proves nothing about it).
    expect(waited, `seed ${seed}: the person was never asked while the view still told the night`);
    errors.check();
    await context.close();
  }],
  ['on a phone the table, the chat and the seat are tabs: a person talks in the chat tab and votes on the table', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page, errors } = await openWerewolf(context);
    await dealToDiscussion(page, false);
    await cmd(page, 'setSpeed', 1);
    expect((await state(page)).layout === 'phone', 'not the phone layout at 390 px');
    await page.screenshot({ path: path.join(shots, 'werewolf-person-table-390x844.png') });
    await clickUntil(page, 'werewolf.tab.chat', () => window.chaiba.werewolf.state().phoneView === 'chat');
    const line = 'P3 was up at night. Who saw P3 by the well?';
    await clickItem(page, 'werewolf.say');
    await page.keyboard.type(line, { delay: 40 });
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => window.chaiba.werewolf.state().chat.some((c) => c.seat === 'P1' && c.text === t),
      line, { timeout: 20000 });
    await page.screenshot({ path: path.join(shots, 'werewolf-person-chat-390x844.png') });
    await cmd(page, 'setSpeed', 0); // the rest of the day at once: the vote waits for the person
    await cmd(page, 'humanPass');
    await page.waitForFunction(() => (window.chaiba.werewolf.state().person.awaiting || []).some((a) => a.kind === 'vote'),
      null, { timeout: 60000 });
    await clickUntil(page, 'werewolf.tab.table', () => window.chaiba.werewolf.state().phoneView === 'table');
    const vote = (await state(page)).person.awaiting.find((a) => a.kind === 'vote');
    const target = vote.targets[vote.targets.length - 1]; // the last seat: beyond the reach of the old layout
    await page.waitForTimeout(800); // the vote buttons ignore clicks in their first 0.7 s
    await clickUntil(page, 'werewolf.act.' + target,
      (t) => window.chaiba.werewolf.state().votes.some((v) => v.voter === 'P1' && v.target === t), { arg: target });
    await clickUntil(page, 'werewolf.tab.seat', () => window.chaiba.werewolf.state().phoneView === 'seat');
    await page.screenshot({ path: path.join(shots, 'werewolf-person-seat-390x844.png') });
    errors.check();
    await context.close();
  }],
  ['the kaggle rules: chosen in New game, and a person abstains with a real click', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    await cmd(page, 'newGame', { players: ['human', ...Array(7).fill('bot')], seed: 1 });
    await clickUntil(page, 'werewolf.newGame', () => !!window.chaiba.werewolf.state().new_game);
    await clickUntil(page, 'werewolf.new.rules.kaggle', () => window.chaiba.werewolf.state().new_game.rules === 'kaggle');
    await page.screenshot({ path: path.join(shots, 'werewolf-new-game-kaggle-1280x800.png') });
    await clickUntil(page, 'werewolf.new.start', () => !window.chaiba.werewolf.state().new_game);
    let exported = JSON.parse(await cmd(page, 'exportJson'));
    expect(exported.setup.rules === 'kaggle' && exported.setup.switches.abstain_allowed && exported.setup.switches.tie_random,
      `the game started from the dialog is not kaggle's: ${JSON.stringify(exported.setup)}`);
    // A table where P1 lives to the first vote; the day's talk at once, the vote waits for the person.
    for (let seed = 1; ; seed++) {
      expect(seed < 40, 'no seed keeps P1 alive to the first vote');
      await cmd(page, 'newGame', { players: ['human', ...Array(7).fill('bot')], seed, rules: 'kaggle' });
      await cmd(page, 'setSpeed', 0);
      await cmd(page, 'start');
      await page.waitForFunction(() => {
        const s = window.chaiba.werewolf.state();
        const a = (s.person.awaiting || []).map((x) => x.kind);
        if (a.includes('speak') && !a.includes('vote')) window.chaiba.werewolf.command('humanPass');
        return s.finished || !s.seats[0].alive || a.includes('vote');
      }, null, { timeout: 60000, polling: 200 });
      if ((await state(page)).person.awaiting.some((a) => a.kind === 'vote')) break;
    }
    await cmd(page, 'setSpeed', 1);
    await page.waitForTimeout(800); // the vote buttons ignore clicks in their first 0.7 s
    await page.screenshot({ path: path.join(shots, 'werewolf-kaggle-abstain-1280x800.png') });
    await clickUntil(page, 'werewolf.act.abstain',
      () => window.chaiba.werewolf.state().votes.some((v) => v.voter === 'P1' && v.target === 'abstain'));
    exported = JSON.parse(await cmd(page, 'exportJson'));
    expect(exported.setup.rules === 'kaggle', 'the kaggle game exports its preset');
    errors.check();
    await context.close();
  }],

  ['export then import gives the same game', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await openWerewolf(context);
    await cmd(page, 'newGame', { players: Array(8).fill('bot'), seed: 5, rules: 'plain' });
    await cmd(page, 'setSpeed', 0);
    await cmd(page, 'start');
    await waitFinished(page, 120000);
    const before = await state(page);
    const text = await cmd(page, 'exportJson');
    const doc = JSON.parse(text);
    expect(doc.game && doc.game.events.length === before.events, 'the export holds every event');
    expect(!/sk-mock/.test(text), 'the export holds no key');
    await cmd(page, 'newGame', { players: Array(8).fill('bot'), seed: 9 });
    await cmd(page, 'importJson', { text });
    await page.waitForFunction(() => { const s = window.chaiba.werewolf.state(); return !s.restoring && s.finished; },
      null, { timeout: 60000 });
    const after = await state(page);
    for (const k of ['events', 'winner', 'round'])
      expect(JSON.stringify(after[k]) === JSON.stringify(before[k]), `${k} differs after import`);
    expect(JSON.stringify(after.chat) === JSON.stringify(before.chat), 'chat differs after import');
    expect(JSON.stringify(after.votes) === JSON.stringify(before.votes), 'votes differ after import');
    let refused = '';
    try { await cmd(page, 'importJson', { text: '{"format":"something else"}' }); } catch (e) { refused = e.message; }
    expect(/not a Werewolf game/.test(refused), 'a wrong file is refused with a reason: ' + refused);
    await context.close();
  }],
  ['a strategy document is edited in Settings in the browser\'s own editor: it wraps, keeps typing and Backspace, Save keeps it in the browser, Reset brings back the shipped one, closing Settings hides it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    const SEL = 'textarea[data-editor="settings.werewolf.strategy"]';
    const box = () => page.evaluate((sel) => {
      const a = document.querySelector(sel);
      if (!a) return null;
      return { shown: getComputedStyle(a).display !== 'none', value: a.value, scrollWidth: a.scrollWidth,
               clientWidth: a.clientWidth, rect: a.getBoundingClientRect().toJSON() };
    }, SEL);
    const storedStrategies = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('werewolf.strategy'))
      .map((k) => [k, localStorage.getItem(k)]));
    await clickItem(page, 'header.settings');
    await page.waitForFunction(() => !!window.chaiba.ui()['settings.window'], null, { timeout: 20000 });
    const win = (await page.evaluate(() => window.chaiba.ui()))['settings.window'];
    // The wheel over the window's scrollbar (the editor, once shown, takes the wheel over itself),
    // until the item is drawn or 30 s have passed: a count of turns was too few once, on a machine
    // busy with a build, where the page took the turns slower than they came.
    const wheelUntil = async (name) => {
      await page.mouse.move(win[0] + win[2] - 5, win[1] + win[3] / 2);
      const deadline = Date.now() + 30000;
      while (!(await page.evaluate((n) => !!window.chaiba.ui()[n], name))) {
        if (Date.now() > deadline) {
          const shown = Object.keys(await page.evaluate(() => window.chaiba.ui())).filter((k) => k.startsWith('settings.'));
          throw new Error(`${name} was not drawn after 30 s of wheel turns over Settings (drawn: ${shown.join(', ')})`);
        }
        await page.mouse.wheel(0, 300);
        await page.waitForTimeout(100);
      }
    };
    await wheelUntil('settings.werewolf');
    await clickUntil(page, 'settings.werewolf', () => !!window.chaiba.ui()['settings.werewolf.save'] ||
      !!document.querySelector('textarea[data-editor="settings.werewolf.strategy"]'));
    await wheelUntil('settings.werewolf.save');
    await page.waitForFunction((sel) => { const a = document.querySelector(sel); return a && getComputedStyle(a).display !== 'none'; },
      SEL, { timeout: 10000 }).catch(async () => { throw new Error(`the strategy editor is not shown: ${JSON.stringify(await box())}`); });
    const shipped = (await box()).value;
    expect(shipped.length > 200, `the shipped document is in the editor: ${JSON.stringify(shipped.slice(0, 80))}`);
    let b = await box();
    expect(b.scrollWidth <= b.clientWidth + 1, `a long line runs off the strategy editor: ${b.scrollWidth} > ${b.clientWidth}`);
    await page.screenshot({ path: path.join(shots, 'werewolf-strategy-editor-1280x800.png') });
    // Typed at its end (a real click into it), a slip taken back with Backspace, then Save.
    await page.mouse.click(b.rect.x + b.rect.width / 2, b.rect.y + b.rect.height / 2);
    await page.keyboard.press('Control+End');
    await typeFast(page, '\nNever claim to be the seer on the first day.x');
    await page.keyboard.press('Backspace');
    const edited = shipped + '\nNever claim to be the seer on the first day.';
    b = await box();
    expect(b && b.value === edited, `typing in the strategy editor gave ${JSON.stringify(b && b.value.slice(-60))}`);
    await clickItem(page, 'settings.werewolf.save');
    await page.waitForFunction(() => !!window.chaiba.ui()['settings.werewolf.note'], null, { timeout: 10000 });
    let stored = await storedStrategies();
    expect(stored.length === 1 && stored[0][1] === edited, `Save did not keep the edit in the browser: ${JSON.stringify(stored).slice(0, 200)}`);
    // Reset: the stored edit goes, the editor shows the shipped document again.
    await clickItem(page, 'settings.werewolf.reset');
    await page.waitForFunction(([sel, text]) => document.querySelector(sel).value === text, [SEL, shipped], { timeout: 10000 });
    stored = await storedStrategies();
    expect(stored.length === 0, `Reset left a stored edit: ${JSON.stringify(stored).slice(0, 200)}`);
    // Closing Settings (Esc on the page) hides the editor.
    await page.mouse.click(win[0] + 10, win[1] + 10);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !window.chaiba.ui()['settings.window'], null, { timeout: 10000 });
    await page.waitForFunction((sel) => { const a = document.querySelector(sel); return !a || getComputedStyle(a).display === 'none'; },
      SEL, { timeout: 10000 }).catch(async () => { throw new Error(`the strategy editor stayed on the page: ${JSON.stringify(await box())}`); });
    errors.check();
    await context.close();
  }],

  // On a desk and on a phone: the same steps.
  ...[[1280, 800, ''], [390, 844, ' on a phone']].map(([width, height, where]) => [
    `a person plays to death at 1x, watches as a spectator, and replays the game back to day 1${where}`, async () => {
      const context = await browser.newContext({ viewport: { width, height } });
      const { page, errors } = await openWerewolf(context);
      const line = await playUntilOut(page, width < 600);
      expect((await state(page)).layout === (width < 600 ? 'phone' : 'desk'), 'the layout at ' + width + ' px');
      await spectateAndReplay(page, line, `${width}x${height}`);
      errors.check();
      await context.close();
    }]),
  ['a CLI game file with AI reasoning and a Werewolf Arena game open in the replay viewer', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openWerewolf(context);
    // A run of `chaiba werewolf` (two AI seats against the stand-in, six bots): its tournament.log.
    // (Run without blocking: the other cases' pages go on meanwhile.)
    const dir = fs.mkdtempSync(path.join(shots, 'cli-run-'));
    await promisify(execFile)(chaiba, ['werewolf', '--players', 'llm:mock/wolf-smart*2,bot*6', '--games', '1', '--seed', '3',
      '--base-url', mock.baseUrl, '--out', path.join(dir, 'run')], { env: { ...process.env, OPENROUTER_API_KEY: mock.key }, maxBuffer: 64 << 20 });
    const log = fs.readFileSync(path.join(dir, 'run', 'tournament.log'), 'utf8');
    const record = JSON.parse(log.split('\n').find((l) => l.includes('{"record":')).slice(9)).record;
    let refused = '';
    try { await cmd(page, 'importJson', { text: log.replace('"vote_cast"', '"teleport"') }); } catch (e) { refused = e.message; }
    expect(/unknown kind "teleport"/.test(refused) && !(await replayState(page)).open, 'a damaged file is refused with the reason: ' + refused);
    await cmd(page, 'importJson', { text: log }); // the Import button's path: a CLI file opens in the viewer
    let r = await replayState(page);
    expect(r.open && r.events === record.events.length && r.winner === record.result.winner, 'the CLI game replays: ' + JSON.stringify(r).slice(0, 200));
    await cmd(page, 'replayJump', 'prev_day');
    await cmd(page, 'replayStep', { by: 3 });
    await cmd(page, 'selectPlayer', 'P1');
    r = await replayState(page);
    const ai = Object.keys(r.minds);
    expect(ai.length === 2 && ai.every((s) => record.seats[Number(s.slice(1)) - 1].player === 'llm:mock/wolf-smart'),
      'the two AI seats have minds: ' + ai);
    expect(ai.some((s) => r.minds[s].reasoning && r.minds[s].notes), 'an AI seat\'s reasoning and notes at that moment');
    await cmd(page, 'selectPlayer', ai[0]);
    await page.screenshot({ path: path.join(shots, 'werewolf-replay-cli-1280x800.png') });
    // An arena game: the finished table's row opens it in this viewer.
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    const arena = (n, a) => page.evaluate(([x, y]) => window.chaiba.werewolfArena.command(x, y), [n, a]);
    await arena('setup', { players: ['bot*8'], games: 2, seed: 1, concurrency: 2 });
    await arena('start');
    await page.waitForFunction(() => window.chaiba.werewolfArena.state().phase === 'finished', null, { timeout: 60000 });
    const games = (await page.evaluate(() => window.chaiba.werewolfArena.state())).games;
    expect(games.length === 2 && games.every((g) => g.replay), 'the arena\'s games have replays');
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-replays-1280x800.png') });
    await clickUntil(page, 'wwarena.game.2', () => window.chaiba.werewolf.state().replay.title.includes('game 2'));
    r = await replayState(page);
    expect(r.open && r.moment === 'Game over' && r.winner === games[1].winner, 'arena game 2 opens at its end');
    // A leaderboard cell lists its player's games; one opens in the viewer.
    await page.evaluate(() => window.chaiba.show('werewolf-arena'));
    await arena('tab', 'leaderboard');
    await clickUntil(page, 'wwBoard.0.0', () => !!window.chaiba.ui()['wwarena.cellGame.1.0']);
    await page.screenshot({ path: path.join(shots, 'werewolf-arena-cell-games-1280x800.png') });
    await clickUntil(page, 'wwarena.cellGame.1.0', () => window.chaiba.werewolf.state().replay.title.includes('game 1 '));
    // The arena's export keeps every game's record; a version 2 bundle still imports, without replays.
    const bundle = JSON.parse(await arena('exportJson'));
    expect(bundle.version === 3 && bundle.records.length === 2, 'the bundle carries the records');
    delete bundle.records;
    bundle.version = 2;
    await arena('importJson', JSON.stringify(bundle));
    const imported = await page.evaluate(() => window.chaiba.werewolfArena.state());
    expect(/no replays/.test(imported.notice) && imported.games.every((g) => !g.replay), 'a version 2 import: ' + imported.notice);
    errors.check();
    await context.close();
  }],
  ['a corrupt stored game gives a message and is kept aside', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await openWerewolf(context);
    await page.evaluate(() => localStorage.setItem('chaiba.werewolf.game', '{"format":"chaiba-werewolf-screen","version":1,"setup":{"players":"oops"'));
    await page.reload();
    await page.waitForFunction(() => window.chaiba && window.chaiba.ready, null, { timeout: 60000 });
    await page.evaluate(() => window.chaiba.show('werewolf'));
    const s = await state(page);
    expect(s.message_is_error && /could not be read/.test(s.message), 'the screen explains: ' + s.message);
    expect(s.corrupt_kept, 'the damaged data is kept');
    const kept = await page.evaluate(() => localStorage.getItem('chaiba.werewolf.game.corrupt'));
    expect(kept && kept.includes('oops'), 'the damaged text is kept unchanged');
    await page.screenshot({ path: path.join(shots, 'werewolf-corrupt-1280x800.png') });
    await context.close();
  }],
];

// Three cases at a time (each in its own context): most of a case is the page's own clock (a day's
// rounds with a person at the table, typing at a person's pace), so they overlap well. The longest
// start first (the rest keep their order).
const LONGEST_FIRST = ['a person types slowly', 'a person plays to death', 'on a phone the table', 'a full 8-seat LLM game',
  'a person in a villager seat', 'the kaggle rules'];
const only = process.env.WEREWOLF_ONLY;
try {
  await runTests(longestFirst(only ? tests.filter(([n]) => n.includes(only)) : tests, LONGEST_FIRST), { lanes: 3 });
} finally {
  await browser.close();
  await server.close();
  await mockServer.close();
}
