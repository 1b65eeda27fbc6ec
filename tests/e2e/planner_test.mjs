// Browser end-to-end tests of "Plan with AI" (the planner's panel beside the arena) against the
// built page and the local stand-in, answering in OpenRouter format and in Anthropic SSE format:
// panel toggle, key entry, a text reply, tool rounds with the stand-in's scripted mistakes (each
// refused, then fixed), graph mutations by hand (a refusal shown, then a fix; each an undo step
// with Revert), multi-turn, an HTTP error on screen, the loading state, auto-scroll, Stop, undo, a
// reload that keeps plan and chat, export and import (pasted and a picked file; malformed and
// oversized files refused), a two-stage plan run to the end in the arena (engine seats), two
// werewolf stages of bots run in the Werewolf Arena, and the panel at 390, 800 and 1920 px.
// usage: node planner_test.mjs SITE_DIR SCREENSHOT_DIR CHAIBA_BINARY
import fs from 'node:fs';
import path from 'node:path';
import { startStaticServer, startMock, launchBrowser, runTests, longestFirst, clickItem, clickUntil, typeFast, afterFrames, waitOrExplain, openPage as openPageAt } from './lib.mjs';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/screenshots');
const chaiba = path.resolve(process.argv[4] || 'build/native/chaiba');
fs.mkdirSync(shots, { recursive: true });
const server = await startStaticServer(site);
const mockServer = await startMock(chaiba);
const mock = { baseUrl: mockServer.baseUrl, key: mockServer.key, origin: mockServer.baseUrl.replace(/\/api\/v1$/, '') };
const browser = await launchBrowser();
const LONG = { timeout: 120000 };

const planner = (page) => page.evaluate(() => window.chaiba.planner.state());
const cmd = (page, name, arg) => page.evaluate(([n, a]) => window.chaiba.planner.command(n, a), [name, arg]);
const expect = (cond, what) => { if (!cond) throw new Error(what); };

// A fresh browser profile at 1280×800 whose engines move without a delay (the plan run is fast).
async function open() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    if (!localStorage.getItem('chaiba.settings')) localStorage.setItem('chaiba.settings', '{"engineMoveDelayMs":0}');
  });
  const { page, errors } = await openPageAt(context, server.url);
  await page.evaluate(() => window.chaiba.show('arena'));
  return { context, page, errors };
}

// Types an API key into the panel's key field. Under load the click that should focus the field
// once missed it (the panel still moving) and the key went nowhere (CI, a full run): click and type
// again while the field holds nothing; a field that holds part of the key is a failure.
async function typeKey(page, key) {
  for (let i = 0; i < 3; i++) {
    await clickItem(page, 'planner.keyInput');
    await typeFast(page, key);
    const typed = await page.waitForFunction((n) => window.chaiba.planner.state().keyChars === n, key.length, { timeout: 5000 })
      .then(() => true, () => false);
    if (typed) return;
    const chars = await page.evaluate(() => window.chaiba.planner.state().keyChars);
    if (chars !== 0) throw new Error(`the key field holds ${chars} of the key's ${key.length} characters`);
  }
  throw new Error('three clicks on planner.keyInput and the key typed after each: the field stayed empty');
}

// Replaces the text of the task editor's box (a click, Ctrl+A, the keys), typed again while the
// box does not hold it: under load a click can miss the box (CI missed one on the key field).
async function typeTaskText(page, text) {
  for (let i = 0; ; i++) {
    await clickItem(page, 'planner.edit.text');
    await page.keyboard.press('Control+A');
    await typeFast(page, text);
    const typed = await page.waitForFunction((t) => window.chaiba.planner.state().editText === t, text, { timeout: 5000 })
      .then(() => true, () => false);
    if (typed) return;
    if (i === 2) throw new Error(`typed ${JSON.stringify(text)}, the task's box holds ${JSON.stringify((await planner(page)).editText)}`);
  }
}

// Types a message into the panel's input with the keyboard and presses Send.
// On a loaded machine a click can land while the panel still settles: the text is checked to be
// in the box before Send, and Send is clicked until the message is in the chat.
async function type(page, text) {
  for (let i = 0; ; i++) {
    await clickItem(page, 'planner.input');
    await typeFast(page, text);
    try {
      await page.waitForFunction((n) => window.chaiba.planner.state().inputChars === n, text.length, { timeout: 5000 });
      break;
    } catch (e) {
      if (i === 2) throw new Error(`typed "${text}", the input holds ${(await planner(page)).inputChars} characters`);
      await clickItem(page, 'planner.input');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
    }
  }
  const before = (await planner(page)).messages.length;
  await clickUntil(page, 'planner.send', (n) => window.chaiba.planner.state().messages.length > n, { arg: before });
}

// Waits for message `index` to end; its proposal, if it made one, is accepted (as the person's
// Accept all) unless `review` is false: the review itself is tested on its own.
async function waitTurn(page, index, timeout = 60000, accept = true) {
  await page.waitForFunction((i) => {
    const m = window.chaiba.planner.state().messages;
    return m.length > i && m[i].end !== 'running';
  }, index, { timeout });
  const turn = (await planner(page)).messages[index];
  if (accept && turn.review === 'pending') await cmd(page, 'accept');
  return turn;
}

// Scrolls the chat up until `item` shows (ui() leaves out what is scrolled away).
async function scrollChatTo(page, item) {
  for (let i = 0; i < 30 && !(await page.evaluate((n) => !!window.chaiba.ui()[n], item)); i++) {
    const win = (await page.evaluate(() => window.chaiba.ui()))['planner.messages'];
    await page.mouse.move(win[0] + win[2] / 2, win[1] + win[3] / 2);
    await page.mouse.wheel(0, -150);
    await page.waitForTimeout(100);
  }
  await page.waitForFunction((n) => !!window.chaiba.ui()[n], item);
}

// The stand-in's scripted plan: 6 tool calls, 2 of them mistakes fixed in the next round.
function checkScriptedTurn(turn, st) {
  expect(turn.end === 'answered', `the message ended ${turn.end}: ${turn.error}`);
  expect(turn.calls.length === 6, `expected 6 tool calls, got ${turn.calls.length}`);
  const errors = turn.calls.filter((c) => c.isError);
  expect(errors.length === 2 && turn.toolErrors === 2, `expected 2 refused calls, got ${errors.length}`);
  expect(/already/i.test(errors[0].result), `the duplicate id is refused with a reason: ${errors[0].result}`);
  expect(/qual/.test(errors[1].result) && /qualifying/.test(errors[1].result),
    `the missing dependency names the closest id: ${errors[1].result}`);
  expect(turn.rounds === 6, `6 model answers, got ${turn.rounds}`);
  const ids = st.graph.nodes.map((n) => n.id).sort().join(',');
  expect(ids === 'final,plan,qual', `graph nodes ${ids}`);
  const edges = st.graph.edges.map((e) => e.join('>')).sort().join(',');
  expect(edges === 'final>qual,plan>final', `graph edges ${edges}`);
  const layer = Object.fromEntries(st.graph.nodes.map((n) => [n.id, n.layer]));
  expect(layer.qual < layer.final && layer.final < layer.plan, `layers ${JSON.stringify(layer)}`);
  expect(/\+3 tasks/.test(turn.diff), `net change ${turn.diff}`);
}

// PLANNER_ONLY=<regex> runs the matching tests only (while working on one).
const only = process.env.PLANNER_ONLY ? new RegExp(process.env.PLANNER_ONLY) : null;
await runTests(longestFirst([
  ['panel toggle and key entry: the tab opens the panel, a typed key is stored, Hide closes it', async () => {
    const { context, page, errors } = await open();
    await page.evaluate((m) => window.chaiba.configure({ baseUrl: m.baseUrl }), mock);
    expect(!(await planner(page)).open, 'the panel starts closed');
    await clickUntil(page, 'planner.open', () => window.chaiba.planner.state().open && !!window.chaiba.ui()['planner.keyInput']);
    expect(!(await planner(page)).keyStored, 'no key yet');
    await page.screenshot({ path: path.join(shots, 'planner-key-1280x800.png') });
    await typeKey(page, mock.key);
    await clickUntil(page, 'planner.saveKey', () => window.chaiba.planner.state().keyStored && !!window.chaiba.ui()['planner.input']);
    // Narrow pages: the open panel takes the whole width (a phone, 800 px); wide pages keep it beside the arena.
    const panelWidth = async () => (await page.evaluate(() => window.chaiba.ui()))['planner.panel'];
    for (const [w, h] of [[390, 844], [800, 600], [1920, 1080]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.waitForFunction((width) => {
        const r = window.chaiba.ui()['planner.panel'];
        if (!r || window.innerWidth !== width) return false;
        return width < 1024 ? r[2] >= width * 0.9 : r[2] < width * 0.9 && r[2] >= 300;
      }, w, LONG).catch(async (e) => {
        const r = await panelWidth();
        throw new Error(`the panel at ${w} px is ${r ? Math.round(r[2]) : 'not'} px wide (${e.message})`);
      });
      if (w !== 800) await page.screenshot({ path: path.join(shots, `planner-${w}x${h}.png`) });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => window.innerWidth === 390 && window.chaiba.ui()['planner.panel'][2] >= 351, null, LONG);
    await clickUntil(page, 'planner.close', () => !window.chaiba.planner.state().open && !!window.chaiba.ui()['planner.open']);
    const bar = (await page.evaluate(() => window.chaiba.ui()))['planner.open'];
    expect(bar[2] >= 300, `closed on a phone, a bar across the top opens the panel (${Math.round(bar[2])} px)`);
    await page.screenshot({ path: path.join(shots, 'planner-closed-390x844.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => window.innerWidth === 1280 && window.chaiba.ui()['planner.open'][2] < 300, null, LONG);
    await clickUntil(page, 'planner.open', () => window.chaiba.planner.state().open);
    await clickUntil(page, 'planner.close', () => !window.chaiba.planner.state().open && !!window.chaiba.ui()['planner.open']);
    expect(!(await page.evaluate(() => window.chaiba.ui()))['planner.panel'], 'the panel is gone when closed');
    errors.check();
    await context.close();
  }],

  ['OpenRouter: tool rounds, refusals fixed, the graph; a node edited by hand (refused, then fixed); undo', async () => {
    const { context, page, errors } = await open();
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await cmd(page, 'configure', { provider: 'openrouter', model: 'mock/planner' });
    await cmd(page, 'open');
    await type(page, 'Qualify engines, then a final against level 4');
    const turn = await waitTurn(page, 0);
    const st = await planner(page);
    checkScriptedTurn(turn, st);
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.undo.0'] && !!window.chaiba.ui()['planner.card.0.5']);
    await page.screenshot({ path: path.join(shots, 'planner-chat-1280x800.png') });
    // The same chat on a phone: the panel takes the whole width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => window.innerWidth === 390 && window.chaiba.ui()['planner.panel'][2] >= 351, null, LONG);
    // The chain of three tasks runs top to bottom there, its nodes near their full size (left to
    // right they were drawn at half size, their text too small to read), clear of the zoom buttons.
    await page.waitForFunction(() => window.chaiba.planner.state().graph.vertical, null, LONG);
    const phone = await page.evaluate(() => window.chaiba.ui());
    const [qual, fin, root] = ['qual', 'final', 'plan'].map((id) => phone[`planner.node.${id}`]);
    expect(qual && fin && root && qual[1] + qual[3] <= fin[1] && fin[1] + fin[3] <= root[1],
      `on a phone the layers run top to bottom: ${JSON.stringify([qual, fin, root])}`);
    expect(qual[2] >= 130, `on a phone a node is drawn ${Math.round(qual[2])} px wide (150 at full size)`);
    const fit = phone['planner.fit'];
    expect(fit[1] + fit[3] <= qual[1], `the top node ${JSON.stringify(qual)} runs under the Fit button ${JSON.stringify(fit)}`);
    // The reply's Undo stays inside the narrow chat (it wraps under its line, it ran off the edge),
    // and the chat still shows its end.
    await waitOrExplain(page, () => {
      const u = window.chaiba.ui(), b = u['planner.undo.0'], w = u['planner.messages'];
      return !!(b && w && b[0] >= w[0] && b[0] + b[2] <= w[0] + w[2] && b[1] + b[3] <= w[1] + w[3] + 1);
    }, () => ({ undo: window.chaiba.ui()['planner.undo.0'], chat: window.chaiba.ui()['planner.messages'], scroll: window.chaiba.planner.state().scroll, keys: Object.entries(window.chaiba.ui()).filter(([k]) => k.startsWith('planner.diff') || k.startsWith('planner.undo') || k.startsWith('planner.card.0')) }));
    await page.screenshot({ path: path.join(shots, 'planner-chat-390x844.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => window.innerWidth === 1280 && window.chaiba.ui()['planner.panel'][2] < 1000, null, LONG);
    // Click a node: its editor opens; a cycle is refused with its path, a rename goes through.
    await clickUntil(page, 'planner.node.final', () => window.chaiba.planner.state().editorOpen &&
      window.chaiba.planner.state().selected === 'final');
    const refused = await cmd(page, 'edit', { task: 'qual', addDependency: 'final' }).then(() => null, (e) => e.message);
    expect(refused && /cycle/.test(refused) && /→/.test(refused), `a cycle is refused with its path: ${refused}`);
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.edit.error']);
    await page.screenshot({ path: path.join(shots, 'planner-editor-1280x800.png') });
    await cmd(page, 'edit', { task: 'final', name: 'Grand final' });
    let after = await planner(page);
    expect(after.editError === '', 'the fix clears the error');
    expect(after.graph.nodes.find((n) => n.id === 'final').name === 'Grand final', 'the rename shows in the graph');
    // Each hand edit is an undo step in the chat: its net change and Revert.
    await cmd(page, 'edit', { task: 'qual', status: 'ready' });
    after = await planner(page);
    expect(after.messages.length === 3 && after.messages[1].byHand && after.messages[2].byHand,
      `two hand edits in the chat, has ${after.messages.length} entries`);
    expect(after.messages[1].text === "edited task 'final'" && after.messages[1].diff === '1 changed',
      `the rename's entry: ${after.messages[1].text}, ${after.messages[1].diff}`);
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.undo.2'] && !!window.chaiba.ui()['planner.diff.2']);
    await cmd(page, 'select', null);
    await page.screenshot({ path: path.join(shots, 'planner-hand-edit-1280x800.png') });
    // Revert the status (a second click only if the first took no effect in 15 s: it would redo)
    await clickUntil(page, 'planner.undo.2', () => window.chaiba.planner.state().messages[2].undone, { waitMs: 15000 });
    after = await planner(page);
    expect(after.graph.nodes.find((n) => n.id === 'qual').status === 'planned', 'Revert restores the status');
    expect(after.graph.nodes.find((n) => n.id === 'final').name === 'Grand final', 'the earlier edit stays');
    // Undo the message: the plan is empty again, the message is marked undone (the rename with it).
    await cmd(page, 'select', null);
    // It takes the rename with it: it asks first.
    await scrollChatTo(page, 'planner.undo.0');
    await clickUntil(page, 'planner.undo.0', () => !!window.chaiba.ui()['planner.undo.confirm'], { waitMs: 15000 });
    expect(!(await planner(page)).messages[0].undone && (await planner(page)).confirmUndo === 0, 'nothing undone before the answer');
    await clickUntil(page, 'planner.undo.confirm', () => window.chaiba.planner.state().messages[0].undone, { waitMs: 15000 });
    after = await planner(page);
    expect(after.graph.nodes.length === 0, `undo empties the plan, has ${after.graph.nodes.length} tasks`);
    expect(after.messages[1].undone, 'the hand edit after the message is undone with it');
    errors.check();
    await context.close();
  }],

  ['multi-turn: a text-only reply, then tool rounds, then a third message; the chat scrolls to the end', async () => {
    const { context, page, errors } = await open();
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await cmd(page, 'configure', { model: 'mock/planner-chatty' });
    await cmd(page, 'open');
    await type(page, 'Hello');
    let turn = await waitTurn(page, 0);
    expect(turn.end === 'answered' && turn.calls.length === 0 && /goal/.test(turn.reply), `text reply: ${JSON.stringify(turn)}`);
    expect(turn.diffEmpty, 'a text reply changes nothing');
    await cmd(page, 'configure', { model: 'mock/planner' });
    await type(page, 'Engines first, then a final');
    checkScriptedTurn(await waitTurn(page, 1), await planner(page));
    await type(page, 'Again please');
    turn = await waitTurn(page, 2);
    expect(turn.end === 'answered' && turn.calls.every((c) => c.isError), 'the repeated script is refused call by call');
    await page.waitForFunction(() => {
      const s = window.chaiba.planner.state().scroll;
      return s.max > 0 && Math.abs(s.y - s.max) < 2;
    }, null, { timeout: 10000 });
    await page.screenshot({ path: path.join(shots, 'planner-multiturn-1280x800.png') });
    errors.check();
    await context.close();
  }],

  ['errors and waiting: an HTTP error is shown; the loading state while the model works; Stop', async () => {
    const { context, page, errors } = await open();
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await cmd(page, 'configure', { model: 'mock/planner-down' });
    await cmd(page, 'open');
    await type(page, 'Plan something');
    const failed = await waitTurn(page, 0);
    expect(failed.end === 'failed' && /credit/i.test(failed.error), `HTTP 402 shown: ${failed.end} ${failed.error}`);
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.error.0']);
    await cmd(page, 'configure', { model: 'mock/planner-slow' });
    await type(page, 'Take your time');
    await page.waitForFunction(() => window.chaiba.planner.state().busy && !!window.chaiba.ui()['planner.loading'] &&
      !!window.chaiba.ui()['planner.stop']);
    await page.screenshot({ path: path.join(shots, 'planner-loading-1280x800.png') });
    await clickItem(page, 'planner.stop');
    const stopped = await waitTurn(page, 1);
    expect(stopped.end === 'stopped', `Stop ends the message: ${stopped.end}`);
    expect(!(await planner(page)).busy, 'not busy after Stop');
    // The browser logs the 402 it was told to get and the request Stop aborted: those two only.
    const expected = (e) => /status of 402/.test(e) || /chat\/completions net::ERR_ABORTED/.test(e);
    errors.errors.splice(0, errors.errors.length, ...errors.errors.filter((e) => !expected(e)));
    errors.check();
    await context.close();
  }],

  ['Anthropic SSE: its own key typed into the panel, the same plan built; the key stays out of the blob', async () => {
    const { context, page, errors } = await open();
    await cmd(page, 'configure', { provider: 'anthropic', model: 'claude-mock-planner', anthropicBaseUrl: mock.origin });
    await cmd(page, 'open');
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.keyInput']);
    expect(!(await planner(page)).keyStored, 'no Anthropic key yet');
    await typeKey(page, mock.key);
    // Under load one click can land while the panel still moves (failed once in a full run): click
    // until the key is stored, and say what the panel showed if it never is.
    await clickUntil(page, 'planner.saveKey', () => window.chaiba.planner.state().keyStored,
      { explain: () => ({ keyStored: window.chaiba.planner.state().keyStored, notice: window.chaiba.planner.state().notice,
                          items: Object.keys(window.chaiba.ui()).filter((k) => k.startsWith('planner.key')) }) });
    await type(page, 'Qualify engines, then a final');
    checkScriptedTurn(await waitTurn(page, 0), await planner(page));
    const stored = await page.evaluate(() => ({ blob: localStorage.getItem('chaiba.planner.settings'),
      chat: localStorage.getItem('chaiba.planner.chat'), key: localStorage.getItem('chaiba.planner.anthropicKey') }));
    expect(stored.key === mock.key, 'the Anthropic key is kept under its own key');
    expect(!stored.blob.includes(mock.key) && !stored.chat.includes(mock.key), 'the key is in no blob');
    // The Settings window has the planner's section, Anthropic chosen.
    // (ui() leaves out what is scrolled away: the section is below the other modes' ones.)
    await clickItem(page, 'header.settings');
    await page.waitForFunction(() => !!window.chaiba.ui()['settings.window']);
    const win = (await page.evaluate(() => window.chaiba.ui()))['settings.window'];
    await page.mouse.move(win[0] + win[2] / 2, win[1] + win[3] / 2);
    for (let i = 0; i < 40 && !(await page.evaluate(() => !!window.chaiba.ui()['settings.planner.anthropic'])); i++) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(100);
    }
    await page.waitForFunction(() => !!window.chaiba.ui()['settings.planner.anthropic']);
    for (let i = 0; i < 10; i++) { await page.mouse.wheel(0, 400); await page.waitForTimeout(100); }
    await afterFrames(page, 4, 500);
    await page.screenshot({ path: path.join(shots, 'planner-settings-1280x800.png') });
    errors.check();
    await context.close();
  }],

  ['review before apply: the proposal on the graph, per task accept (a refusal, then a part), reject, undo that asks, redo', async () => {
    const { context, page, errors } = await open();
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await cmd(page, 'configure', { model: 'mock/planner-batch' });
    await cmd(page, 'open');
    // 1. A proposal: nothing applied, the graph shows it marked, Accept all applies it.
    await type(page, 'Plan a tournament that ranks the engine levels');
    let turn = await waitTurn(page, 0, 60000, false);
    let st = await planner(page);
    expect(turn.review === 'pending' && st.pendingReview === 0, `the change waits for review: ${turn.review}`);
    expect(st.plan === '', 'nothing is applied before Accept');
    expect(st.graph.nodes.length === 2 && st.graph.nodes.every((n) => n.mark === 'added'), `the graph shows the proposal marked: ${JSON.stringify(st.graph.nodes)}`);
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.review.accept'] && !!window.chaiba.ui()['planner.review.reject']);
    await page.screenshot({ path: path.join(shots, 'planner-review-1280x800.png') });
    // Sending, editing by hand, running: each waits for the decision, and says so.
    const blocked = await cmd(page, 'say', 'more').then(() => null, (e) => e.message);
    expect(blocked && /accept or reject/.test(blocked), `a message while a proposal waits: ${blocked}`);
    await clickUntil(page, 'planner.review.accept', () => window.chaiba.planner.state().pendingReview === null);
    st = await planner(page);
    expect(/task plan:/.test(st.plan) && /task qual:/.test(st.plan) && st.messages[0].review === 'accepted', 'Accept all applies the proposal');
    expect(st.graph.nodes.every((n) => n.mark === ''), 'no marks once applied');
    // 2. Per task: the final without the root's new edge; first only the root (refused: its edge
    //    needs the final), then only the final.
    await type(page, 'Add a final: the top 2 of the qualifier against engine 4');
    turn = await waitTurn(page, 1, 60000, false);
    st = await planner(page);
    const kinds = Object.fromEntries(st.review.changes.map((c) => [c.id, c.kind]));
    expect(kinds.final === 'added' && kinds.plan === 'changed', `the changes: ${JSON.stringify(kinds)}`);
    const planChange = st.review.changes.find((c) => c.id === 'plan');
    expect(planChange.added.some((l) => /needs .*final/.test(l)), `the field-level change of plan: ${JSON.stringify(planChange)}`);
    await clickUntil(page, 'planner.review.pick.final', () => !!window.chaiba.ui()['planner.review.acceptTicked']);
    await page.waitForTimeout(200);
    await clickItem(page, 'planner.review.acceptTicked');
    await page.waitForFunction(() => /final/.test(window.chaiba.planner.state().review.error));
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.review.error']);
    await page.screenshot({ path: path.join(shots, 'planner-review-refused-1280x800.png') });
    expect((await planner(page)).pendingReview === 1, 'a refused part leaves the proposal waiting');
    await cmd(page, 'accept', { only: ['final'] });
    st = await planner(page);
    expect(/task final:/.test(st.plan) && !/needs final/.test(st.plan), 'only the final was applied');
    expect(st.messages[1].review === 'partial' && /rejected the one to plan/.test(st.messages[1].reviewNote), st.messages[1].reviewNote);
    // 3. Reject: the plan stays; the model reads it next time.
    await type(page, 'Play two games per pair in the qualifier');
    await waitTurn(page, 2, 60000, false);
    st = await planner(page);
    const qual = st.review.changes.find((c) => c.id === 'qual');
    expect(qual && qual.removed.includes('  games 1') && qual.added.includes('  games 2'), `games 1 -> 2: ${JSON.stringify(qual)}`);
    await clickUntil(page, 'planner.review.reject', () => window.chaiba.planner.state().pendingReview === null);
    st = await planner(page);
    expect(/games 1/.test(st.plan) && st.messages[2].review === 'rejected', 'Reject keeps the plan as it was');
    // 4. Undo of message 0 takes message 1 with it: asked first; Redo brings both back.
    await type(page, 'Call the final the Grand final');
    await waitTurn(page, 3);
    const full = (await planner(page)).plan;
    await scrollChatTo(page, 'planner.undo.0');
    await clickUntil(page, 'planner.undo.0', () => !!window.chaiba.ui()['planner.undo.question']);
    await page.screenshot({ path: path.join(shots, 'planner-undo-asks-1280x800.png') });
    expect((await planner(page)).plan === full, 'nothing undone while it asks');
    await clickUntil(page, 'planner.undo.cancel', () => window.chaiba.planner.state().confirmUndo === null);
    await scrollChatTo(page, 'planner.undo.0');
    await clickUntil(page, 'planner.undo.0', () => !!window.chaiba.ui()['planner.undo.confirm']);
    await clickUntil(page, 'planner.undo.confirm', () => window.chaiba.planner.state().messages[0].undone);
    st = await planner(page);
    expect(st.plan === '' && st.messages[1].undone && st.messages[3].undone, 'the later messages are undone with it');
    expect(/the message "Plan a tournament/.test(st.redo), `redo says what it brings back: ${st.redo}`);
    // Redo is on the undone message's line (and at the chat's end).
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.redo.0']);
    await page.screenshot({ path: path.join(shots, 'planner-redo-1280x800.png') });
    await clickUntil(page, 'planner.redo.0', () => !window.chaiba.planner.state().messages[0].undone);
    st = await planner(page);
    expect(st.plan === full && !st.messages[3].undone, 'Redo brings the plan back');
    errors.check();
    await context.close();
  }],

  ['by hand, without a key: the header opens the planner; sample plan and format beside Import; add a task and edit a stage as text; zoom buttons', async () => {
    const { context, page, errors } = await open();
    expect(!(await planner(page)).open, 'the panel starts closed');
    await clickUntil(page, 'header.planner', () => window.chaiba.planner.state().open);
    expect(!(await planner(page)).keyStored, 'no key');
    await clickUntil(page, 'planner.import', () => !!window.chaiba.ui()['planner.import.sample']);
    await clickUntil(page, 'planner.import.sample', () => window.chaiba.planner.state().importChars > 100);
    await clickUntil(page, 'planner.import.format', () => !!window.chaiba.ui()['planner.import.format'], { waitMs: 1000 });
    await afterFrames(page, 4, 300);
    await page.screenshot({ path: path.join(shots, 'planner-import-sample-1280x800.png') });
    await clickUntil(page, 'planner.import.go', () => !window.chaiba.planner.state().importOpen);
    let st = await planner(page);
    expect(/task sample:/.test(st.plan) && st.graph.nodes.length === 3, `the sample plan is imported: ${st.notice}`);
    // Add a task by hand (the editor's template: a stage of two engines), then make the root need it.
    await clickUntil(page, 'planner.addTask', () => window.chaiba.planner.state().addingTask && !!window.chaiba.ui()['planner.edit.add']);
    await clickUntil(page, 'planner.edit.add', () => /task stage:/.test(window.chaiba.planner.state().plan));
    st = await planner(page);
    expect(st.messages.at(-1).byHand && st.messages.at(-1).text === 'added a task', `the addition is a step: ${st.messages.at(-1).text}`);
    // Edit the qualifier's stage as text: three games per pair and a fifth player.
    await cmd(page, 'select', 'qual');
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.editor']);
    // (ui() leaves out what is scrolled away: on a short page the text is lower in the editor)
    for (let i = 0; i < 20 && !(await page.evaluate(() => !!window.chaiba.ui()['planner.edit.saveText'])); i++) {
      const win = (await page.evaluate(() => window.chaiba.ui()))['planner.editor'];
      await page.mouse.move(win[0] + win[2] / 2, win[1] + win[3] / 2);
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(100);
    }
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.edit.text'] && !!window.chaiba.ui()['planner.edit.saveText']);
    await typeTaskText(page, 'task qual: Qualifier\nstage chess roundrobin\ngames three\nplayer engine:0\nplayer engine:1\n');
    await clickUntil(page, 'planner.edit.saveText', () => /line 3: games must be a whole number/.test(window.chaiba.planner.state().editError));
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.edit.error']);
    await typeTaskText(page, 'task qual: Qualifier\nstage chess roundrobin\ngames 3\nplayer engine:0\nplayer engine:1\nplayer engine:2\nplayer random\nplayer engine:3\n');
    await clickUntil(page, 'planner.edit.saveText', () => /task qual: Qualifier\n[^]*games 3[^]*player engine:3/.test(window.chaiba.planner.state().plan));
    await page.screenshot({ path: path.join(shots, 'planner-edit-text-1280x800.png') });
    await cmd(page, 'select', null);
    // Zoom buttons: + and − change the zoom (they used to do nothing), Fit goes back.
    const zoom = async () => (await planner(page)).graph.zoom;
    const fitted = await zoom();
    await clickUntil(page, 'planner.zoomIn', () => window.chaiba.planner.state().graph.zoom > 1.01 * 1.0 && true, { waitMs: 2000 });
    const bigger = await zoom();
    expect(bigger > fitted * 1.2, `+ zooms in: ${fitted} -> ${bigger}`);
    await clickItem(page, 'planner.zoomOut');
    await page.waitForFunction((z) => window.chaiba.planner.state().graph.zoom < z * 0.9, bigger);
    await clickItem(page, 'planner.zoomIn');
    await page.waitForFunction((z) => window.chaiba.planner.state().graph.zoom > z * 1.1, fitted);
    await clickUntil(page, 'planner.fit', () => true, { waitMs: 500 });
    await page.waitForFunction((z) => Math.abs(window.chaiba.planner.state().graph.zoom - z) < 1e-3, fitted);
    // Two fingers spread on the graph (a phone's pinch) zoom in.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
    const g = (await page.evaluate(() => window.chaiba.ui()))['planner.graph'];
    const cx = g[0] + g[2] / 2, cy = g[1] + g[3] / 2;
    const fingers = (d) => [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(20) });
    for (const d of [30, 45, 60, 80]) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(d) });
      await page.waitForTimeout(50);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForFunction((z) => window.chaiba.planner.state().graph.zoom > z * 1.5, fitted, { timeout: 10000 })
      .catch(async () => { throw new Error(`a pinch did not zoom: ${fitted} -> ${await zoom()}`); });
    await cmd(page, 'fit');
    await page.waitForFunction((z) => Math.abs(window.chaiba.planner.state().graph.zoom - z) < 1e-3, fitted);
    // Node labels are never smaller than the body text: a node is at least its full size.
    const ui = await page.evaluate(() => window.chaiba.ui());
    expect(ui['planner.node.qual'][2] >= 149, `a node at the fit is ${ui['planner.node.qual'][2]} px wide (150 at zoom 1)`);
    await page.screenshot({ path: path.join(shots, 'planner-sample-1280x800.png') });
    errors.check();
    await context.close();
  }],

  ['reload keeps plan and chat; export, import and a picked file (bad ones refused); a two-stage plan and two werewolf stages run to the end', async () => {
    const { context, page, errors } = await open();
    await page.evaluate((m) => window.chaiba.configure({ apiKey: m.key, baseUrl: m.baseUrl }), mock);
    await cmd(page, 'configure', { model: 'mock/planner' });
    await cmd(page, 'open');
    await type(page, 'Qualify engines, then a final');
    await waitTurn(page, 0);
    const before = await planner(page);
    await page.reload();
    await page.waitForFunction(() => window.chaiba && window.chaiba.ready && window.chaiba.stats().framesRendered > 3, null, LONG);
    const after = await planner(page);
    expect(after.plan === before.plan && after.plan.length > 0, 'the plan survives a reload');
    expect(after.messages.length === 1 && after.messages[0].calls.length === 6, 'the chat survives a reload');
    const text = await cmd(page, 'exportText');
    expect(/task qual/.test(text), 'the export is the plan text');
    const spent = (await planner(page)).spentUsd;
    await cmd(page, 'newPlan');
    expect((await planner(page)).graph.nodes.length === 0, 'a new plan starts from scratch');
    // The money the first plan's messages cost stays in the session (the header's total went down).
    expect(spent > 0 && (await planner(page)).spentUsd === spent, `the session spend after New plan: ${spent} -> ${(await planner(page)).spentUsd}`);
    const bad = await cmd(page, 'importText', text.replace('needs qual', 'needs nowhere')).then(() => null, (e) => e.message);
    expect(bad && /line \d+/.test(bad) && /nowhere/.test(bad), `a bad import names its line: ${bad}`);
    // Import… → Choose a file…: a malformed file and one over the size limit are refused with the
    // reason and change nothing; a good file replaces the plan.
    const pick = async (name, content) => {
      // (clicked until the dialog's file button shows: one click under load can land while the
      // sidebar still moves, and the dialog then never opens)
      if (!(await planner(page)).importOpen) await clickUntil(page, 'planner.import', () => !!window.chaiba.ui()['planner.import.file']);
      await page.waitForFunction(() => !!window.chaiba.ui()['planner.import.file'], null, LONG);
      const chooser = page.waitForEvent('filechooser');
      chooser.catch(() => {}); // a failed click is reported by the await below, not as a crash
      await clickItem(page, 'planner.import.file');
      await (await chooser).setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content) });
    };
    await cmd(page, 'importText', 'task keep: Keep me\n');
    const kept = (await planner(page)).plan;
    await pick('broken.plan', text.replace('needs qual', 'needs nowhere'));
    await page.waitForFunction(() => /broken\.plan: the plan was not imported: line \d+/.test(window.chaiba.planner.state().importError));
    await page.screenshot({ path: path.join(shots, 'planner-import-error-1280x800.png') });
    expect((await planner(page)).plan === kept, 'a malformed file changes nothing');
    await pick('huge.plan', 'x'.repeat(1100000));
    await page.waitForFunction(() => /huge\.plan: the file is \d+ KiB, over the limit of 1024 KiB/.test(window.chaiba.planner.state().importError));
    expect((await planner(page)).plan === kept, 'a file over the limit changes nothing');
    await pick('plan.txt', text);
    await page.waitForFunction(() => !window.chaiba.planner.state().importOpen);
    const imported = await planner(page);
    expect(imported.plan === before.plan && /plan\.txt/.test(imported.notice), `the picked file restores the plan: ${imported.notice}`);
    // An import is an undo step: Revert brings back the plan it replaced.
    const steps = imported.messages.length;
    expect(imported.messages[steps - 1].byHand && imported.messages[steps - 1].text === 'imported a plan', 'the import is a step');
    await cmd(page, 'undo', steps - 1);
    expect((await planner(page)).plan === kept, 'Revert of the import brings back the plan it replaced');
    await cmd(page, 'importText', text);
    // Run: qual (4 players, round robin) then final (its top 2 and engine:4), in the arena.
    await cmd(page, 'run');
    await page.waitForFunction(() => window.chaiba.planner.state().run.current === 'qual', null, LONG);
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'running', null, LONG);
    await page.screenshot({ path: path.join(shots, 'planner-run-1280x800.png') });
    await page.waitForFunction(() => !window.chaiba.planner.state().run.running, null, { timeout: 600000 });
    const done = await planner(page);
    expect(!done.run.failed, `the run failed: ${done.run.status}`);
    expect(done.run.status === 'plan plan: done', `the run ends with the plan done: ${done.run.status}`);
    const status = Object.fromEntries(done.graph.nodes.map((n) => [n.id, n.status]));
    expect(status.qual === 'done' && status.final === 'done' && status.plan === 'done', `statuses ${JSON.stringify(status)}`);
    const arena = await page.evaluate(() => window.chaiba.arena.state());
    expect(arena.phase === 'finished', `the arena ends finished, is ${arena.phase}`);
    const seats = arena.config.participants.map((p) => p.spec);
    expect(seats.length === 3 && seats.includes('engine:4'), `the final seats the top 2 and engine:4: ${seats}`);
    await page.screenshot({ path: path.join(shots, 'planner-run-done-1280x800.png') });
    // Each stage's table is kept with the plan: its standings, who went on and the tie rule; the
    // qualifier's node shows its winner and its editor the table; a reload keeps them.
    const results = done.results;
    expect(results.qual && results.qual.standings.length === 4 && results.final && results.final.standings.length === 3,
      `the stages' tables: ${JSON.stringify(results).slice(0, 400)}`);
    expect(JSON.stringify(results.qual.advanced.final.seats) === JSON.stringify(results.qual.ranking.slice(0, 2)) &&
      seats.includes(results.qual.ranking[0]) && seats.includes(results.qual.ranking[1]),
      `the final seated the qualifier's top 2: ${JSON.stringify(results.qual.advanced)} ${seats}`);
    expect(/rating/.test(results.qual.tieRule), `the tie rule is stated: ${results.qual.tieRule}`);
    expect(done.graph.nodes.find((n) => n.id === 'qual').status === 'done', 'qual done');
    await cmd(page, 'select', 'qual');
    await page.waitForFunction(() => !!window.chaiba.ui()['planner.result.qual']);
    await page.screenshot({ path: path.join(shots, 'planner-stage-result-1280x800.png') });
    await cmd(page, 'select', null);
    await page.reload();
    await page.waitForFunction(() => window.chaiba && window.chaiba.ready && window.chaiba.stats().framesRendered > 3, null, LONG);
    const reloaded = (await planner(page)).results;
    expect(JSON.stringify(reloaded.qual.ranking) === JSON.stringify(results.qual.ranking) && reloaded.final,
      'the stage results survive a reload');
    // Each stage's tournament is kept: the qualifier opens again from its node, in the arena that
    // now holds the final (asked first), its 6 games and 4 players there again.
    expect(reloaded.qual.kept && reloaded.final.kept, `both stages kept: ${reloaded.qual.kept} ${reloaded.final.kept}`);
    const asked = await cmd(page, 'openStage', { task: 'qual' }).then(() => null, (e) => e.message);
    expect(asked && /opening it replaces the arena's tournament \(3 of 3 games played, finished\)/.test(asked), `opening asks first: ${asked}`);
    expect((await page.evaluate(() => window.chaiba.arena.state())).config.participants.length === 3, 'nothing replaced while it asks');
    await cmd(page, 'openStage', { task: 'qual', replace: true });
    // (an import shows its games once the browser's store confirmed them)
    await page.waitForFunction(() => window.chaiba.arena.state().phase === 'finished', null, LONG).catch(() => {});
    const reopened = await page.evaluate(() => window.chaiba.arena.state());
    expect(reopened.phase === 'finished' && reopened.config.participants.length === 4 && reopened.gamesFinished === 6,
      `the qualifier is back in the arena: ${reopened.phase}, ${reopened.config.participants.length} players, ${reopened.gamesFinished} games`);
    // Run plan never replaces a tournament without asking: the arena now holds the final.
    await cmd(page, 'importText', text); // the same plan again, every stage planned
    const refused = await page.evaluate(() => {
      try { window.chaiba.planner.command('run'); return ''; } catch (e) { return String(e && e.message || e); }
    });
    expect(/would replace the arena's tournament \(\d+ of \d+ games played, finished\)/.test(refused),
      `a second run must ask before replacing the arena's tournament: ${refused}`);
    expect(!(await planner(page)).run.running && (await page.evaluate(() => window.chaiba.arena.state())).phase === 'finished',
      'the refused run left the arena as it was');
    // A werewolf stage (bots only) runs in the Werewolf Arena; its top 1 seats the next table.
    await cmd(page, 'importText', 'task plan: Bots at the table\n  needs rematch\n\ntask table: Six bots\n' +
      '  stage werewolf arena\n  games 2\n  player bot*6\n\ntask rematch: Rematch\n  needs table\n' +
      '  stage werewolf arena\n  games 2\n  rules plain\n  player top 1 of table\n  player bot*4\n');
    await cmd(page, 'run');
    await page.waitForFunction(() => !window.chaiba.planner.state().run.running, null, { timeout: 300000 });
    const wolves = await planner(page);
    expect(!wolves.run.failed && wolves.run.status === 'plan plan: done', `the werewolf run: ${wolves.run.status}`);
    const ww = await page.evaluate(() => window.chaiba.werewolfArena.state());
    expect(ww.phase === 'finished' && ww.gamesFinished === 2 && ww.config.players.length === 5 && ww.config.rules === 'plain',
      `the Werewolf Arena played the rematch: ${ww.phase}, ${ww.gamesFinished} games, ${JSON.stringify(ww.config.players)}`);
    // The first werewolf stage is kept too: it opens again in the Werewolf Arena (asked first).
    expect((await planner(page)).results.table.kept, 'the werewolf stage is kept');
    const wwAsked = await cmd(page, 'openStage', { task: 'table' }).then(() => null, (e) => e.message);
    expect(wwAsked && /Werewolf Arena's tournament/.test(wwAsked), `opening asks first: ${wwAsked}`);
    await cmd(page, 'openStage', { task: 'table', replace: true });
    await page.waitForFunction(() => window.chaiba.werewolfArena.state().phase === 'finished', null, LONG).catch(() => {});
    const table = await page.evaluate(() => window.chaiba.werewolfArena.state());
    expect(table.phase === 'finished' && table.gamesFinished === 2 && table.config.rules !== 'plain',
      `the first table is back: ${table.phase}, ${table.gamesFinished} games, rules ${table.config.rules}`);
    // The werewolf stage in the node's editor, on a phone.
    await page.evaluate(() => window.chaiba.show('arena'));
    await page.setViewportSize({ width: 390, height: 844 });
    await cmd(page, 'select', 'rematch');
    await page.waitForFunction(() => window.innerWidth === 390 && !!window.chaiba.ui()['planner.edit.stage'], null, LONG);
    const editor = (await page.evaluate(() => window.chaiba.ui()))['planner.edit.stage'];
    expect(editor[0] >= 0 && editor[0] + editor[2] <= 391, `the editor fits the phone: ${editor}`);
    await page.screenshot({ path: path.join(shots, 'planner-werewolf-editor-390x844.png') });
    errors.check();
    await context.close();
  }],
// Two cases at a time (each its own context), the plan run (the longest: its games) first.
].filter(([name]) => !only || only.test(name)), ['reload keeps plan', 'review before apply', 'by hand']), { lanes: 2 });

await browser.close();
await server.close();
mockServer.close();
