// The shipped engine worker alone in headless Chromium, for the benchmarks that time it: a blank
// page of the static server's origin (nothing drawn) with engine_worker.js in a Web Worker.
// `move(text)` sends one engine_choose_move request (web/engine_worker.cpp: start FEN, "std" or
// "960", level, seed, the UCI moves) and answers { ok, move, score, depth, nodes, error, ms }, the
// time measured in the browser from the request to the reply.
export async function openEngineWorker(browser, serverUrl) {
  const page = await browser.newPage();
  await page.route('**/blank.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>worker</title>' }));
  await page.goto(serverUrl + 'blank.html');
  await page.evaluate(() => {
    const worker = new Worker('engine_worker.js');
    let next = 1;
    window.engineMove = (text) => new Promise((resolve) => {
      const id = next++;
      const t0 = performance.now();
      const onMessage = (e) => {
        if (e.data.callbackId !== id) return;
        worker.removeEventListener('message', onMessage);
        resolve({ reply: new TextDecoder().decode(e.data.data), ms: performance.now() - t0 });
      };
      worker.addEventListener('message', onMessage);
      worker.postMessage({ funcName: 'engine_choose_move', callbackId: id, data: new TextEncoder().encode(`${id}\n${text}`) });
    });
  });
  const move = async (text) => {
    const { reply, ms } = await page.evaluate((t) => window.engineMove(t), text);
    const f = reply.split(' '); // "<id> ok <uci> <score> <depth> <nodes> [pv...]" or "<id> error <why>"
    return f[1] === 'ok'
      ? { ok: true, move: f[2], score: Number(f[3]), depth: Number(f[4]), nodes: Number(f[5]), ms }
      : { ok: false, error: f.slice(2).join(' '), ms };
  };
  // The first request loads and compiles the module: not timed by the callers.
  const first = await move('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nstd\n1\n1\n');
  if (!first.ok) throw new Error(`the engine worker did not answer: ${first.error}`);
  return { move, close: () => page.close() };
}
