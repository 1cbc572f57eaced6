/**
 * The page's two static files, shipped inside the CLI bundle (no build step at run time, no
 * file to find next to dist/): the style sheet and a small script for search-as-you-type and
 * the "/" shortcut. ASCII only (the bundle is read as latin1): no literal non-ASCII characters.
 */

export const UI_CSS = `
:root{--fg:#1d2330;--muted:#5f6b7a;--line:#d9dee5;--bg:#fff;--soft:#f4f6f9;--accent:#2456c7;--warn:#9a5b00;--warnbg:#fff4df;--bad:#a3231b;--good:#1b7a3a}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;gap:16px;align-items:center;padding:8px 20px;border-bottom:1px solid var(--line);background:var(--soft);flex-wrap:wrap}
.brand{font-weight:700;font-size:16px;color:var(--fg);text-decoration:none}
nav{display:flex;gap:4px;flex-wrap:wrap}
nav a{padding:4px 8px;border-radius:4px;color:var(--fg);text-decoration:none}
nav a.active,nav a:hover{background:#e3e8f0}
form.search{margin-left:auto}
form.search input{width:260px;padding:5px 8px;border:1px solid var(--line);border-radius:4px;font:inherit}
main{padding:12px 20px 40px;max-width:1400px}
h1{font-size:20px;margin:8px 0 12px}
h2{font-size:16px;margin:20px 0 8px}
a{color:var(--accent)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:8px 10px;overflow:auto;white-space:pre-wrap;word-break:break-word}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em}
.muted{color:var(--muted)}
.by{white-space:nowrap}
.at{margin:0;padding:6px 20px;background:var(--warnbg);color:var(--warn)}
footer{padding:8px 20px;color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
.actions details{margin:6px 0}.actions summary{cursor:pointer;color:var(--accent)}
form.edit label{display:block;margin:8px 0;font-weight:600}form.edit input,form.edit textarea{display:block;width:100%;max-width:720px;margin-top:3px;padding:5px 8px;border:1px solid var(--line);border-radius:4px;font:inherit;font-weight:400}
.actions button{padding:5px 12px;border:1px solid var(--accent);border-radius:4px;background:var(--accent);color:#fff;font:inherit;cursor:pointer}
.badge{display:inline-block;padding:0 6px;border-radius:9px;font-size:12px;background:#e8ecf2;white-space:nowrap}
.s-active,.s-open,.s-added,.s-answered{background:#dff3e4;color:var(--good)}
.s-superseded,.s-archived,.s-done,.s-applied{background:#eceef2;color:var(--muted)}
.s-revoked,.s-removed,.s-blocked{background:#fbe3e1;color:var(--bad)}
.s-in-progress,.s-changed{background:#e2ebfb;color:var(--accent)}
.e-required{background:#fbe3e1;color:var(--bad)}
.stale{display:block;margin-top:3px;padding:2px 6px;border-left:3px solid var(--warn);background:var(--warnbg);color:var(--warn);font-size:12.5px}
.chain{margin:4px 0;display:flex;flex-wrap:wrap;gap:6px;align-items:center}
.chain .arrow{color:var(--muted)}
.chain a{padding:1px 6px;border:1px solid var(--line);border-radius:4px;text-decoration:none}
.chain a.current{border-color:var(--accent);font-weight:600}
.board{display:grid;grid-template-columns:repeat(4,minmax(180px,1fr));gap:12px}
.col{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px}
.col h2{margin:0 0 8px;font-size:13px;text-transform:uppercase;color:var(--muted)}
.card{background:#fff;border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin-bottom:6px}
.pager{display:flex;gap:12px;align-items:center;margin:12px 0}
.filters{margin:0 0 10px;display:flex;gap:8px;flex-wrap:wrap}
.filters a{padding:2px 8px;border:1px solid var(--line);border-radius:12px;text-decoration:none;color:var(--fg)}
.filters a.on{background:var(--accent);border-color:var(--accent);color:#fff}
dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0 0 12px}
dl.fields dt{color:var(--muted)}
dl.fields dd{margin:0}
.text{white-space:pre-wrap;word-break:break-word;max-width:90ch}
.diff .add{color:var(--good)} .diff .del{color:var(--bad)} .diff .hunk{color:var(--accent)}
.change{border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:8px 0}
.empty{color:var(--muted);font-style:italic}
.rules ul{margin:4px 0 10px;padding-left:20px}
`;

export const UI_JS = `(function () {
  'use strict';
  var box = document.getElementById('q');
  var main = document.getElementById('main');
  if (!box || !main) return;
  var params = new URLSearchParams(location.search);
  if (location.pathname === '/search' && params.get('q')) box.value = params.get('q');
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    var typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
    if (e.key === '/' && !typing) { e.preventDefault(); box.focus(); box.select(); }
    if (e.key === 'Escape' && t === box) box.blur();
  });
  var timer = null;
  var seq = 0;
  box.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var q = box.value.trim();
      if (!q) return;
      var mine = ++seq;
      fetch('/search?fragment=1&q=' + encodeURIComponent(q), { headers: { Accept: 'text/html' } })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(new Error('search failed: ' + r.status)); })
        .then(function (text) {
          if (mine !== seq) return;
          main.innerHTML = text;
          history.replaceState(null, '', '/search?q=' + encodeURIComponent(q));
        })
        .catch(function () {});
    }, 150);
  });
})();
`;
