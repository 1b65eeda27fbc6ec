// CHAIBA: the page's side of its I/O worker (web/io_worker.js, whose functions are loaded into the
// page too). Module.chaibaIo.fetch/cancel serve web/http_web.cpp, Module.chaibaIo.write serves
// web/idb_store.cpp. Requests and writes go to the worker once it has said it runs (and, for
// writes, that it opened the database); before that, or if it cannot run (a host that does not
// serve io_worker.js, a browser without workers) or stops, the page does them itself with the same
// functions. A request the stopped worker still held ends with an error (the model call is
// retried like any transport error); its unconfirmed writes are written again by the page.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  var io = Module['chaibaIo'] = {
    worker: null, ready: false, dbReady: false, failed: '', dbFailed: '',
    // Figures for chaiba.stats() and the tests: requests and write batches each way went.
    requestsInWorker: 0, requestsOnPage: 0, writesInWorker: 0, writesOnPage: 0,
  };
  var sinks = {};     // request id -> the page's callbacks, while the worker has the request
  var pageFetches = {}; // request id -> cancel function, for requests the page makes itself
  var inFlight = [];  // write batches sent to the worker and not yet confirmed, in order
  var pageDb = function () { var s = Module['chaibaIdb']; return s && s.db; };

  var committed = function (last) {
    var s = Module['chaibaIdb'];
    if (s && last > (s.committed || 0)) s.committed = last;
    // Released keys whose write is now committed leave the memory copy (read back from
    // IndexedDB when asked: web/idb_store.cpp).
    if (s && s.released && s.released.size) {
      s.released.forEach(function (ticket, key) {
        if (ticket <= s.committed) { s.map.delete(key); s.released.delete(key); }
      });
    }
  };
  var writeError = function (message) {
    var s = Module['chaibaIdb'];
    if (s) s.writeErrors.push(message);
  };
  var writeOnPage = function (batch) {
    io.writesOnPage++;
    chaibaIoWrite(pageDb(), batch.ops, function () { committed(batch.last); }, writeError);
  };
  var stop = function (reason) {
    if (io.failed) return;
    io.failed = reason;
    io.ready = io.dbReady = false;
    try { io.worker.terminate(); } catch (e) { /* already gone */ }
    var lost = sinks;
    sinks = {};
    Object.keys(lost).forEach(function (id) { lost[id].error(4, 'the request was lost: ' + reason); });
    inFlight.splice(0).forEach(writeOnPage);
  };

  if (typeof Worker === 'undefined') {
    io.failed = 'this browser has no Web Workers';
  } else {
    try {
      io.worker = new Worker('io_worker.js');
    } catch (e) {
      io.failed = 'the I/O worker could not start (' + chaibaIoErrorName(e) + ')';
    }
  }
  if (io.worker) {
    io.worker.onerror = function (e) {
      if (e && e.preventDefault) e.preventDefault();
      stop('the I/O worker stopped (' + (e && e.message ? e.message : 'io_worker.js could not be loaded') + ')');
    };
    io.worker.onmessage = function (e) {
      var m = e.data, sink = m.id !== undefined ? sinks[m.id] : null;
      switch (m.t) {
      case 'ready': io.ready = true; break;
      case 'dbReady': io.dbReady = true; break;
      case 'dbFailed':
        // The page keeps writing with its own connection (the one that loaded the records).
        io.dbFailed = m.message;
        inFlight.splice(0).forEach(writeOnPage);
        break;
      case 'response': if (sink) sink.response(m.status, m.headers); break;
      case 'body': if (sink) sink.body(m.data); break;
      case 'done': if (sink) { delete sinks[m.id]; sink.done(); } break;
      case 'error': if (sink) { delete sinks[m.id]; sink.error(m.kind, m.message); } break;
      case 'committed':
      case 'writeError':
        while (inFlight.length && inFlight[0].last <= m.last) inFlight.shift();
        if (m.t === 'committed') committed(m.last); else writeError(m.message);
        break;
      }
    };
  }

  // req: {method, url, headers (an object), body (Uint8Array or null), timeoutMs}; sink as
  // chaibaIoFetch's. The worker gets the body's own copy (transferred).
  io.fetch = function (id, req, sink) {
    if (io.ready) {
      io.requestsInWorker++;
      sinks[id] = sink;
      io.worker.postMessage({ t: 'fetch', id: id, req: req }, req.body ? [req.body.buffer] : []);
      return;
    }
    io.requestsOnPage++;
    var end = function () { delete pageFetches[id]; };
    pageFetches[id] = chaibaIoFetch(req, {
      response: sink.response, body: sink.body,
      done: function () { end(); sink.done(); },
      error: function (kind, message) { end(); sink.error(kind, message); },
    });
  };
  io.cancel = function (id) {
    if (sinks[id]) {
      delete sinks[id];
      io.worker.postMessage({ t: 'cancel', id: id });
    }
    var cancel = pageFetches[id];
    if (cancel) { delete pageFetches[id]; cancel(); }
  };
  // ops: [key, value or null] in order; last: the newest write ticket among them.
  io.write = function (ops, last) {
    var batch = { ops: ops, last: last };
    if (io.dbReady) {
      io.writesInWorker++;
      inFlight.push(batch);
      io.worker.postMessage({ t: 'write', ops: ops, last: last });
    } else {
      writeOnPage(batch);
    }
  };
});
