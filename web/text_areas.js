// The browser's own multi-line text editors over the canvas (src/ui/text_areas.h): one <textarea>
// per open editor, placed each drawn frame where ImGui laid out its box, hidden when a drawn frame
// did not place it. A pre-js, so its key listeners come before emscripten's GLFW ones: keys typed
// into an editor are the editor's (GLFW would hand them to ImGui too, and cancel Backspace and
// Tab), and so are paste, copy and cut (the page's own paste handler feeds ImGui).
(function () {
  'use strict';
  var areas = {};  // id -> textarea
  var placed = {}; // ids placed in the frame being drawn
  var written = {}; // id -> the style values last written (only changes are written again)
  function ours(e) { return !!(e.target && e.target.classList && e.target.classList.contains('chaiba-textarea')); }
  ['keydown', 'keypress', 'keyup', 'paste', 'copy', 'cut'].forEach(function (type) {
    window.addEventListener(type, function (e) { if (ours(e)) e.stopImmediatePropagation(); }, true);
  });
  function px(v) { return Math.round(v * 100) / 100 + 'px'; }
  // ImGui's packed colour (red in the low byte) as CSS.
  function rgba(c) { return 'rgba(' + (c & 255) + ',' + ((c >>> 8) & 255) + ',' + ((c >>> 16) & 255) + ',' + (((c >>> 24) & 255) / 255) + ')'; }
  Module['chaibaTextAreas'] = {
    open: function (id, text, label) {
      var a = areas[id];
      if (!a) {
        a = document.createElement('textarea');
        a.className = 'chaiba-textarea';
        a.spellcheck = true;
        a.setAttribute('wrap', 'soft');
        a.setAttribute('data-editor', id);
        a.style.display = 'none';
        document.body.appendChild(a);
        areas[id] = a;
        written[id] = { display: 'none' };
      }
      a.setAttribute('aria-label', label);
      a.value = text;
      a.setSelectionRange(0, 0);
      a.scrollTop = 0;
      a.dataset.focusOnShow = '1';
    },
    place: function (id, x, y, w, h, fontPx, ratio, text, border) {
      var a = areas[id];
      if (!a) return;
      placed[id] = true;
      // Only what changed is written: the page lays out again only when the box moved.
      var want = { left: px(x / ratio), top: px(y / ratio), width: px(w / ratio), height: px(h / ratio),
                   fontSize: px(fontPx / ratio), color: rgba(text), borderColor: rgba(border), display: 'block' };
      var shown = written[id];
      for (var k in want) if (shown[k] !== want[k]) { shown[k] = want[k]; a.style[k] = want[k]; }
      if (a.dataset.focusOnShow) {
        delete a.dataset.focusOnShow;
        a.focus({ preventScroll: true });
      }
    },
    text: function (id) { return areas[id] ? areas[id].value : ''; },
    close: function (id) {
      var a = areas[id];
      if (!a) return;
      var hadFocus = document.activeElement === a;
      a.parentNode.removeChild(a);
      delete areas[id];
      delete written[id];
      if (hadFocus && Module['canvas']) Module['canvas'].focus();
    },
    // After a drawn frame: editors it did not place are hidden (their text kept); the keyboard
    // goes back to the page from a hidden one.
    endFrame: function () {
      for (var id in areas) {
        if (placed[id]) continue;
        var a = areas[id];
        if (written[id].display !== 'none') {
          if (document.activeElement === a && Module['canvas']) Module['canvas'].focus();
          written[id].display = 'none';
          a.style.display = 'none';
        }
      }
      placed = {};
    }
  };
})();
