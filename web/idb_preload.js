// CHAIBA: loads the arena's IndexedDB records into memory before main() runs (a run dependency),
// so web/idb_store.cpp reads synchronously; its writes go to memory at once and to IndexedDB in
// the background, and a failed write is reported back to the app, never dropped silently.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  var state = Module['chaibaIdb'] = { map: new Map(), db: null, error: '', writeErrors: [] };
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
