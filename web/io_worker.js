// CHAIBA's I/O: the page's HTTP requests (fetch, streamed bodies) and IndexedDB writes. Loaded
// twice: as a Web Worker (site/io_worker.js), which does both off the main thread, and into the
// page itself (--pre-js), whose web/io_client.js falls back to the same functions on the main
// thread when the worker cannot run. A browser's fetch() and IndexedDB transactions cost the main
// thread ~0.8 ms and ~0.9 ms each under load (the arena soak, tests/bench/arena_soak.mjs).
//
// Worker messages (in): {t: 'fetch', id, req: {method, url, headers, body, timeoutMs}},
// {t: 'cancel', id}, {t: 'write', last, ops: [[key, value or null], ...]}.
// Out: {t: 'ready'}, {t: 'dbReady'} or {t: 'dbFailed', message}, {t: 'response', id, status,
// headers}, {t: 'body', id, data}, {t: 'done', id}, {t: 'error', id, kind, message},
// {t: 'committed', last}, {t: 'writeError', message}. The API key travels inside a request's
// headers to its own URL only; nothing here logs a request.

// One request: sink.response(status, headerLines), sink.body(Uint8Array), sink.done(),
// sink.error(kind, message) with kind 0 offline, 1 blocked, 2 timeout, 3 aborted, 4 other
// (TransportErrorKind order). Returns a function that cancels it (no sink call follows).
function chaibaIoFetch(req, sink) {
  var controller = new AbortController();
  var state = { cancelled: false, timedOut: false, timer: 0 };
  var fail = function (kind, message) {
    if (state.cancelled) return;
    clearTimeout(state.timer);
    sink.error(kind, message);
  };
  if (req.timeoutMs > 0) state.timer = setTimeout(function () { state.timedOut = true; controller.abort(); }, req.timeoutMs);
  var init = { method: req.method, signal: controller.signal, headers: req.headers };
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.body) init.body = req.body;
  fetch(req.url, init).then(function (response) {
    if (state.cancelled) return;
    var headerLines = '';
    response.headers.forEach(function (value, name) { headerLines += name + ': ' + value + '\n'; });
    sink.response(response.status, headerLines);
    var finish = function () {
      if (state.cancelled) return;
      clearTimeout(state.timer);
      sink.done();
    };
    if (!response.body || !response.body.getReader) {
      return response.arrayBuffer().then(function (all) {
        if (state.cancelled) return;
        sink.body(new Uint8Array(all));
        finish();
      });
    }
    var reader = response.body.getReader();
    var next = function () {
      return reader.read().then(function (part) {
        if (state.cancelled) { reader.cancel(); return; }
        if (part.done) return finish();
        sink.body(part.value);
        return next();
      });
    };
    return next();
  }).catch(function (err) {
    if (state.timedOut) return fail(2, 'no answer within ' + req.timeoutMs + ' ms');
    if (err && err.name === 'AbortError') return fail(3, 'aborted');
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return fail(0, 'the browser is offline');
    // fetch() reports CORS refusals and unreachable hosts alike, as a TypeError.
    fail(1, 'network error or blocked by the browser (CORS): ' + (err && err.message ? err.message : err));
  });
  return function () {
    state.cancelled = true;
    clearTimeout(state.timer);
    controller.abort();
  };
}

function chaibaIoErrorName(e) {
  return e && e.name ? e.name + (e.message ? ': ' + e.message : '') : String(e);
}

// Writes a batch ([key, value or null] in order) in one transaction of the "kv" store; then
// committed() or failed(message).
function chaibaIoWrite(db, ops, committed, failed) {
  var what = ops.length === 1 ? '"' + ops[0][0] + '"' : ops.length + ' records ("' + ops[0][0] + '" and others)';
  try {
    var tx = db.transaction('kv', 'readwrite');
    var os = tx.objectStore('kv');
    for (var i = 0; i < ops.length; i++) {
      if (ops[i][1] === null) os.delete(ops[i][0]);
      else os.put(ops[i][1], ops[i][0]);
    }
    tx.onerror = function (e) { if (e && e.preventDefault) e.preventDefault(); };
    tx.onabort = function () { failed('saving ' + what + ' failed (' + chaibaIoErrorName(tx.error) + ')'); };
    tx.oncomplete = function () { committed(); };
    // Commit now rather than after this turn of the event loop.
    if (typeof tx.commit === 'function') tx.commit();
  } catch (e) {
    failed('the browser refused to store ' + what + ' (' + chaibaIoErrorName(e) + ')');
  }
}

// Opens the page's database ("chaiba", store "kv"): then opened(db) or failed(message).
function chaibaIoOpen(opened, failed) {
  try {
    var open = indexedDB.open('chaiba', 1);
    open.onupgradeneeded = function () { open.result.createObjectStore('kv'); };
    open.onerror = function () { failed('IndexedDB could not be opened (' + chaibaIoErrorName(open.error) + ')'); };
    open.onblocked = function () { failed('IndexedDB is blocked by another tab of this page'); };
    open.onsuccess = function () {
      var db = open.result;
      db.onversionchange = function () { db.close(); };
      opened(db);
    };
  } catch (e) {
    failed('IndexedDB failed (' + chaibaIoErrorName(e) + ')');
  }
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  (function () {
    var cancels = new Map();
    var db = null;
    var waiting = [];  // write batches that came before the database opened
    var post = function (message, transfer) { self.postMessage(message, transfer || []); };
    var write = function (m) {
      chaibaIoWrite(db, m.ops, function () { post({ t: 'committed', last: m.last }); },
                    function (message) { post({ t: 'writeError', last: m.last, message: message }); });
    };
    self.onmessage = function (e) {
      var m = e.data;
      if (m.t === 'fetch') {
        var id = m.id;
        var end = function () { cancels.delete(id); };
        cancels.set(id, chaibaIoFetch(m.req, {
          response: function (status, headers) { post({ t: 'response', id: id, status: status, headers: headers }); },
          body: function (bytes) {
            // A chunk that shares its buffer is copied, so the transfer moves only its bytes.
            var own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
            post({ t: 'body', id: id, data: own }, [own.buffer]);
          },
          done: function () { end(); post({ t: 'done', id: id }); },
          error: function (kind, message) { end(); post({ t: 'error', id: id, kind: kind, message: message }); },
        }));
      } else if (m.t === 'cancel') {
        var cancel = cancels.get(m.id);
        if (cancel) { cancels.delete(m.id); cancel(); }
      } else if (m.t === 'write') {
        if (db) write(m);
        else waiting.push(m);
      }
    };
    if (typeof indexedDB === 'undefined' || !indexedDB) {
      post({ t: 'dbFailed', message: 'this browser has no IndexedDB in workers' });
    } else {
      chaibaIoOpen(function (opened) {
        db = opened;
        post({ t: 'dbReady' });
        waiting.splice(0).forEach(write);
      }, function (message) { post({ t: 'dbFailed', message: message }); });
    }
    post({ t: 'ready' });
  })();
}
