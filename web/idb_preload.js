// CHAIBA: loads the arena's IndexedDB records into memory before main() runs (a run dependency),
// so web/idb_store.cpp reads synchronously; its writes go to memory at once and to IndexedDB in
// the background, and a failed write is reported back to the app, never dropped silently.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  var state = Module['chaibaIdb'] = { map: new Map(), db: null, error: '', writeErrors: [] };
  // Group commit: writes wait here (in order) while a transaction of theirs is still being
  // committed, then go together as the next one (web/idb_store.cpp numbers them;
  // Module.chaibaIo.write makes the transaction). With none in flight they go when the current
  // JavaScript returns (a microtask), as one transaction. So a quiet page writes at once, and a
  // busy one (an answer a task, a move stored each) makes a transaction per commit, not per write.
  // A batch of kMaxBatch writes or kMaxBatchChars characters goes at once, so does one that waited
  // kMaxWaitMs, and so does everything waiting when the tab is hidden or closing.
  var kMaxBatch = 256, kMaxBatchChars = 1 << 20, kMaxWaitMs = 100;
  var batch = null, batchChars = 0, timer = 0, outstanding = 0;
  var settled = function () {
    outstanding--;
    if (batch && outstanding === 0) state.flush();
  };
  state.flush = function () {
    if (!batch) return;
    clearTimeout(timer);
    var started = performance.now();
    var ops = batch;
    batch = null;
    batchChars = 0;
    outstanding++;
    Module['chaibaIo'].write(ops, state.ticket, settled);
    // Main-thread time outside the loop's tick, for the soak's figures.
    var spent = performance.now() - started;
    state.flushes = (state.flushes || 0) + 1;
    state.flushMs = (state.flushMs || 0) + spent;
    state.flushWorstMs = Math.max(state.flushWorstMs || 0, spent);
  };
  state.queue = function (key, value) {
    var first = !batch;
    if (first) batch = [];
    batch.push([key, value]);
    batchChars += key.length + (value === null ? 0 : value.length);
    if (batch.length >= kMaxBatch || batchChars >= kMaxBatchChars) return state.flush();
    if (!first) return;
    if (outstanding === 0) queueMicrotask(function () { if (outstanding === 0) state.flush(); });
    timer = setTimeout(state.flush, kMaxWaitMs); // a slow commit does not hold the next writes for long
  };
  if (typeof addEventListener === 'function') addEventListener('pagehide', state.flush);
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'hidden') state.flush();
  });
  if (typeof indexedDB === 'undefined' || !indexedDB) {
    state.error = 'this browser has no IndexedDB';
    return;
  }
  addRunDependency('chaiba-idb');
  var done = false;
  var finish = function (error) {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (error) state.error = error;
    removeRunDependency('chaiba-idb');
  };
  // A browser that never answers (some private modes) must not keep the page from starting.
  var timer = setTimeout(function () { finish('IndexedDB did not answer'); }, 8000);
  var name = function (e) { return e && e.name ? e.name : String(e); };
  // Opened as the I/O worker opens it (web/io_worker.js, loaded into the page before this runs).
  chaibaIoOpen(function (db) {
    // Keys and values in two bulk reads of one transaction (same key order): a tournament of
    // ten thousand game records loads in one step instead of a cursor step per record.
    var os, keysReq, valuesReq;
    try {
      os = db.transaction('kv', 'readonly').objectStore('kv');
      keysReq = os.getAllKeys();
      valuesReq = os.getAll();
    } catch (e) {
      finish('IndexedDB could not be read (' + name(e) + ')');
      return;
    }
    var started = (typeof performance !== 'undefined') ? performance.now() : 0;
    valuesReq.onsuccess = function () {
      var keys = keysReq.result || [], values = valuesReq.result || [];
      for (var i = 0; i < keys.length && i < values.length; ++i)
        if (typeof values[i] === 'string') state.map.set(String(keys[i]), values[i]);
      state.loadMs = (typeof performance !== 'undefined') ? performance.now() - started : 0;
      state.db = db;
      finish('');
    };
    keysReq.onerror = valuesReq.onerror = function () {
      finish('IndexedDB could not be read (' + name(valuesReq.error || keysReq.error) + ')');
    };
  }, finish);
});
