// Browser end-to-end tests of the Story screen against the built page and the local OpenRouter
// stand-in (game-master models of tests/e2e/mock_modes/story.py): the sample world on first start;
// a turn with a world_advance pre-step and a dice roll (bands and roll on screen); undo restores the
// files; a reload keeps the conversation; the recorded adventure replays without a key; a
// misbehaving model's error is shown on screen; export and import a world.
// usage: node story_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer, startMock, launchBrowser, waitForFrames, runTests, clickItem, openPage as openPageAt } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const mock = await startMock(chaiba);
const browser = await launchBrowser();
const state = (page) => page.evaluate(() => window.chaiba.story.state());
const story = (page, name, arg) => page.evaluate(([n, a]) => window.chaiba.story[n](a), [name, arg]);
const LEAP = 'I leap from the quay toward the salt tower (locations/salt-tower.md)';
const MODELS = { narrator: 'mock/gm-narrator', orchestrator: 'mock/gm-orchestrator', fallback: '', simple: false };

async function openStory(context) {
  const { page, errors } = await openPageAt(context, server.url);
  await page.evaluate(() => window.chaiba.show('story'));
  await waitForFrames(page, 6);
  return { page, errors };
}

async function withKey(page) {
  await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), { key: mock.key, baseUrl: mock.baseUrl });
  await story(page, 'configure', MODELS);
}

const files = async (page, paths) => Object.fromEntries(await Promise.all(paths.map(async (p) =>
  [p, await page.evaluate((x) => { try { return window.chaiba.story.read_file({ path: x }); } catch (e) { return null; } }, p)])));

await runTests([
  ['the sample world is installed on first start, and its recorded adventure replays without a key', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openStory(context);
    const st = await state(page);
    if (st.world !== 'brackwater' || !st.files.includes('NPCs/mira-teal.md')) throw new Error(`no sample world: ${JSON.stringify(st).slice(0, 400)}`);
    if (st.hasKey) throw new Error('a fresh page should have no key');
    await clickItem(page, 'story.replay');
    await page.waitForFunction(() => window.chaiba.story.state().replay.active, null, { timeout: 20000 });
    const steps = (await state(page)).replay.steps;
    if (steps < 10) throw new Error(`the recording has only ${steps} steps`);
    for (let i = 2; i <= 8; i++) {
      await clickItem(page, 'story.replayStep');
      await page.waitForFunction((n) => window.chaiba.story.state().replay.step >= n, i, { timeout: 20000 });
    }
    const rs = (await state(page)).replay;
    if (rs.step !== 8) throw new Error(`replay at step ${rs.step}, expected 8`);
    await page.waitForFunction(() => !!window.chaiba.ui()['story.dice'], null, { timeout: 20000 });
    await page.screenshot({ path: path.join(shots, 'story-replay-1280x800.png') });
    // Saying something without a key asks for one, on screen.
    await story(page, 'replay_stop');
    const refused = await page.evaluate(() => { try { window.chaiba.story.say({ text: 'hello' }); return ''; } catch (e) { return e.message; } });
    if (!/key/.test(refused)) throw new Error(`say without a key: ${refused}`);
    await page.waitForFunction(() => !!window.chaiba.ui()['story.key'], null, { timeout: 20000 });
    await page.screenshot({ path: path.join(shots, 'story-needs-key-1280x800.png') });
    errors.check();
    await context.close();
  }],

  ['a turn with a pre-step and a roll; undo restores the files; a reload keeps the conversation', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openStory(context);
    await withKey(page);
    const watched = ['locations/salt-tower.md', 'factions.md'];
    const before = await files(page, watched);
    if (before['locations/salt-tower.md'] !== null) throw new Error('the salt tower exists before the turn');
    await page.evaluate((t) => window.chaiba.story.say({ text: t }), LEAP);
    await page.waitForFunction(() => window.chaiba.story.state().turns.length === 1, null, { timeout: 60000 });
    const st = await state(page);
    if (st.error) throw new Error(`turn error: ${st.error}`);
    const turn = st.turns[0];
    if (turn.rolls.length !== 1) throw new Error(`rolls: ${JSON.stringify(turn.rolls)}`);
    const roll = turn.rolls[0];
    if (roll.bands.length !== 3 || roll.bands[0].low !== 1 || roll.bands[2].high !== 100) throw new Error(`bands: ${JSON.stringify(roll.bands)}`);
    if (!turn.narration.includes(`The dice fall (${roll.roll})`)) throw new Error(`the reply ignores the roll: ${turn.narration}`);
    if (turn.offScreen.length !== 1) throw new Error(`off-screen: ${JSON.stringify(turn.offScreen)}`);
    if (!turn.filesChanged.includes('locations/salt-tower.md')) throw new Error(`files: ${turn.filesChanged}`);
    if (!st.files.includes('locations/salt-tower.md')) throw new Error('the pre-step file is not in the world');
    if (!(turn.costUsd > 0)) throw new Error('no cost');
    await page.waitForFunction(() => !!window.chaiba.ui()['story.dice'] && !!window.chaiba.ui()['story.offscreen.1'], null, { timeout: 20000 });
    await clickItem(page, 'story.offscreen.1');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'story-turn-1280x800.png') });
    const log = st.lastTurnLog;
    if (!log || log.steps < 3 || !(log.totalMs >= log.narratorFirstTokenMs)) throw new Error(`agent log: ${JSON.stringify(log)}`);
    console.log(`     figures: orchestrator ${log.orchestratorMs} ms, pre-steps ${log.preStepsMs} ms, narrator first token ` +
      `${log.narratorFirstTokenMs} ms, total ${log.totalMs} ms; $${log.costUsd.toFixed(4)}; context ${log.contextTokens} tokens`);

    // Reload: the conversation and the world come back from IndexedDB.
    await page.reload();
    await waitForFrames(page, 6);
    const after = await state(page);
    if (after.turns.length !== 1 || after.turns[0].narration !== turn.narration) throw new Error('the reload lost the conversation');
    if (!after.files.includes('locations/salt-tower.md')) throw new Error('the reload lost the pre-step file');
    // The agent log of the turn, read back from the stored file.
    await clickItem(page, 'story.log.1');
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'story-agent-log-1280x800.png') });

    // Undo (a real click): the files come back exactly, the turn leaves the transcript.
    await clickItem(page, 'story.undo');
    await page.waitForFunction(() => window.chaiba.story.state().turns.length === 0, null, { timeout: 20000 });
    const restored = await files(page, watched);
    if (JSON.stringify(restored) !== JSON.stringify(before)) throw new Error(`undo did not restore the files: ${JSON.stringify(restored).slice(0, 300)}`);
    // And after a reload too.
    await page.reload();
    await waitForFrames(page, 6);
    if ((await state(page)).turns.length !== 0) throw new Error('the undone turn came back after a reload');
    errors.check();
    await context.close();
  }],

  ['a person\'s edit joins the history; branch from a message keeps the world as it was', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openStory(context);
    await withKey(page);
    const original = await story(page, 'read_file', { path: 'NPCs/mira-teal.md' });
    await story(page, 'edit_file', { path: 'NPCs/mira-teal.md', content: original + '\nShe owes the Guild money.\n' });
    await story(page, 'say', { text: 'I look around the quay.' });
    await page.waitForFunction(() => window.chaiba.story.state().turns.length >= 1 && !window.chaiba.story.state().streaming, null, { timeout: 60000 });
    await story(page, 'say', { text: LEAP });
    await page.waitForFunction(() => window.chaiba.story.state().turns.length >= 2 && !window.chaiba.story.state().streaming, null, { timeout: 60000 });
    let st = await state(page);
    if (!st.turns[0].filesChanged.includes('NPCs/mira-teal.md')) throw new Error('the edit is not part of turn 1');
    await story(page, 'branch', { turn: 1, keepReply: true });
    st = await state(page);
    if (st.conversation === 'main' || st.turns.length !== 1 || st.branchedFrom !== 'main') throw new Error(`branch: ${st.conversation} ${st.turns.length}`);
    if (st.files.includes('locations/salt-tower.md')) throw new Error('the branch kept a later turn\'s file');
    await story(page, 'panel', { panel: 'files', file: 'NPCs/mira-teal.md' });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, 'story-files-1280x800.png') });
    // Undo turn 1 of the branch: the person's edit goes back with it.
    await story(page, 'undo');
    if ((await story(page, 'read_file', { path: 'NPCs/mira-teal.md' })) !== original) throw new Error('undo kept the person\'s edit');
    errors.check();
    await context.close();
  }],

  ['a misbehaving model\'s error is shown on screen and nothing is lost', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openStory(context);
    await withKey(page);
    await story(page, 'configure', { narrator: 'mock/gm-broken', orchestrator: 'mock/gm-broken', simple: true });
    const turnsBefore = (await state(page)).turns.length;
    await page.evaluate(() => window.chaiba.story.say({ text: 'I knock on the lamp-house door.' }));
    await page.waitForFunction(() => !window.chaiba.story.state().streaming && window.chaiba.story.state().error, null, { timeout: 90000 });
    const st = await state(page);
    if (!/500|broken/.test(st.error)) throw new Error(`error: ${st.error}`);
    if (st.turns.length !== turnsBefore) throw new Error('a failed turn was recorded');
    await page.waitForFunction(() => !!window.chaiba.ui()['story.error'], null, { timeout: 20000 });
    await page.screenshot({ path: path.join(shots, 'story-error-1280x800.png') });
    // The browser logs each 500 answer as a failed resource load: those are the test's own doing.
    const others = errors.errors.filter((e) => !/status of 500/.test(e));
    if (others.length) throw new Error(others.join('\n'));
    await context.close();
  }],

  ['export and import a world with its conversations as one file; a new world from a pitch', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openStory(context);
    const archive = await story(page, 'export');
    const doc = JSON.parse(archive);
    if (!JSON.stringify(doc).includes('mira-teal')) throw new Error('the export lacks the world files');
    await story(page, 'import', { text: archive });
    let st = await state(page);
    if (st.worlds.length < 2 || st.world === 'brackwater') throw new Error(`import: ${JSON.stringify(st.worlds)}`);
    const bad = await page.evaluate(() => { try { window.chaiba.story.import({ text: '{"nope":1}' }); return ''; } catch (e) { return e.message; } });
    if (!bad) throw new Error('a bad archive was accepted');
    await story(page, 'new_world', { title: 'Glass Harbour', pitch: 'A port city where every window is a ledger of debts.' });
    st = await state(page);
    if (st.world !== 'glass-harbour' || !st.files.includes('config.yaml')) throw new Error(`new world: ${st.world}`);
    errors.check();
    await context.close();
  }],
]);

await browser.close();
mock.close();
await server.close();
