// The page of specgate studio: a file tree, a CodeMirror 6 editor whose
// markers come from the server's checks of the unsaved text, a problems
// panel, and the actions, each previewed as a diff before it writes.
import { EditorState, Compartment, Text } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLineGutter, highlightSpecialChars,
  drawSelection, dropCursor, highlightActiveLine, rectangularSelection, crosshairCursor,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  foldGutter, foldKeymap, indentOnInput, syntaxHighlighting, defaultHighlightStyle, bracketMatching,
} from "@codemirror/language";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { search, searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { lintGutter, lintKeymap, setDiagnostics, forEachDiagnostic } from "@codemirror/lint";
import { yaml } from "@codemirror/lang-yaml";
import { json } from "@codemirror/lang-json";

const $ = (id) => document.getElementById(id);
const CHECK_DELAY = 300; // ms of pause in typing before a check
const POLL_EVERY = 3000; // ms between checks of the open file on disk

// The token comes in the start-up URL; the tab keeps it and takes it out of
// the address bar (and so out of the history and of screenshots).
const params = new URLSearchParams(location.search);
if (params.get("token")) {
  sessionStorage.setItem("specgate-studio-token", params.get("token"));
  window.history.replaceState(null, "", location.pathname + location.hash);
}
const token = sessionStorage.getItem("specgate-studio-token") || "";

// Each tab has a name that survives its reloads, so that its unsaved edits
// come back to it and other tabs can say which tab holds a file.
let tabId = sessionStorage.getItem("specgate-studio-tab");
if (!tabId) {
  tabId = Math.random().toString(16).slice(2, 6);
  sessionStorage.setItem("specgate-studio-tab", tabId);
}
$("tab-label").textContent = "tab " + tabId;

const state = {
  dir: "",
  files: [], // tree entries
  buffers: new Map(), // path -> {state, base, text, disk}
  current: null, // path
  stages: new Map(), // stage -> diagnostics of the current check
  stageNotes: new Map(),
  checkAbort: null,
  checkSeq: 0,
  others: new Map(), // path -> Set of other tabs holding it
};

async function api(method, path, body, opts = {}) {
  const res = await fetch(path, {
    method,
    headers: { "X-Specgate-Token": token, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: opts.signal,
  });
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok && !opts.allow?.includes(res.status)) {
    const err = new Error((data && data.detail) || res.statusText);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return { status: res.status, data };
}

// Drafts: the unsaved text of each file, per tab, in IndexedDB (a spec of
// several megabytes is beyond localStorage's quota), so that a reload or a
// crash loses nothing.
const draftKey = (path) => `${state.dir}:${tabId}:${path}`;
let draftDB = null;
function drafts(mode) {
  if (!draftDB) {
    draftDB = new Promise((resolve, reject) => {
      const req = indexedDB.open("specgate-studio", 1);
      req.onupgradeneeded = () => req.result.createObjectStore("drafts");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  return draftDB.then((db) => db.transaction("drafts", mode).objectStore("drafts"));
}
function idb(req) {
  return new Promise((resolve, reject) => { req.onsuccess = () => resolve(req.result); req.onerror = () => reject(req.error); });
}
async function saveDraft(path, buf) {
  try {
    await idb((await drafts("readwrite")).put({ text: buf.state.doc.toString(), base: buf.base, at: Date.now() }, draftKey(path)));
  } catch (e) {
    setStatus("could not keep a draft: " + e.message);
  }
}
async function loadDraft(path) {
  try {
    return (await idb((await drafts("readonly")).get(draftKey(path)))) || null;
  } catch {
    return null;
  }
}
async function dropDraft(path) {
  try {
    await idb((await drafts("readwrite")).delete(draftKey(path)));
  } catch { /* nothing to drop */ }
}

// Tabs of the same studio talk over a BroadcastChannel: which files each
// holds, and saves.
const channel = "BroadcastChannel" in window ? new BroadcastChannel("specgate-studio") : null;
function announce(type, extra = {}) {
  channel?.postMessage({ type, tab: tabId, dir: state.dir, ...extra });
}
channel?.addEventListener("message", (ev) => {
  const m = ev.data;
  if (!m || m.dir !== state.dir || m.tab === tabId) return;
  if (m.type === "holding" || m.type === "hello") {
    forgetTab(m.tab);
    for (const p of m.files || []) {
      if (!state.others.has(p)) state.others.set(p, new Set());
      state.others.get(p).add(m.tab + (m.dirty?.includes(p) ? " (unsaved changes)" : ""));
    }
    if (m.type === "hello") announceHolding();
    renderBanner();
  } else if (m.type === "bye") {
    forgetTab(m.tab);
    renderBanner();
  } else if (m.type === "saved" && state.buffers.has(m.path)) {
    diskChanged(m.path, m.version, "tab " + m.tab + " saved it");
  }
});
// forgetTab drops what another tab said it holds.
function forgetTab(tab) {
  for (const tabs of state.others.values()) for (const t of [...tabs]) if (t === tab || t.startsWith(tab + " ")) tabs.delete(t);
}

function announceHolding() {
  const files = [...state.buffers.keys()];
  const dirty = files.filter((p) => isDirty(p));
  announce("holding", { files, dirty });
}
window.addEventListener("pagehide", () => announce("bye"));

const language = new Compartment();
const langFor = (path) => (path.endsWith(".json") ? json() : yaml());

function extensions(path) {
  return [
    lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), foldGutter(),
    drawSelection(), dropCursor(), EditorState.allowMultipleSelections.of(true), indentOnInput(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }), bracketMatching(), closeBrackets(),
    rectangularSelection(), crosshairCursor(), highlightActiveLine(), highlightSelectionMatches(),
    search({ top: true }), lintGutter(),
    keymap.of([
      { key: "Mod-s", preventDefault: true, run: () => { save(); return true; } },
      ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap, indentWithTab,
    ]),
    language.of(langFor(path)),
    EditorView.updateListener.of((u) => { if (u.docChanged) edited(); }),
  ];
}

let view = null;
function ensureView() {
  if (view) return view;
  $("editor").textContent = "";
  view = new EditorView({ parent: $("editor") });
  return view;
}

function isDirty(path) {
  const b = state.buffers.get(path);
  return !!b && !b.state.doc.eq(b.diskDoc);
}

function setStatus(text) { $("status").textContent = text; }

// The file tree: folders as <details>, files with their kind.
function renderTree() {
  const root = { dirs: new Map(), files: [] };
  for (const f of state.files) {
    const parts = f.path.split("/");
    let node = root;
    for (const p of parts.slice(0, -1)) {
      if (!node.dirs.has(p)) node.dirs.set(p, { dirs: new Map(), files: [] });
      node = node.dirs.get(p);
    }
    node.files.push(f);
  }
  const build = (node, parent) => {
    for (const [name, sub] of [...node.dirs].sort((a, b) => a[0].localeCompare(b[0]))) {
      const d = document.createElement("details");
      d.open = true;
      const s = document.createElement("summary");
      s.textContent = name + "/";
      d.append(s);
      build(sub, d);
      parent.append(d);
    }
    for (const f of node.files) {
      const a = document.createElement("a");
      a.href = "#" + encodeURIComponent(f.path);
      a.dataset.path = f.path;
      a.dataset.kind = f.kind;
      a.title = f.path + (f.spec ? " (example of " + f.spec + ")" : "");
      const name = document.createElement("span");
      name.textContent = f.path.split("/").pop();
      a.append(name);
      if (f.kind !== "file") {
        const k = document.createElement("span");
        k.className = "kind kind-" + f.kind;
        k.textContent = f.kind;
        a.append(k);
      }
      if (isDirty(f.path)) name.textContent += " ●";
      a.classList.toggle("active", f.path === state.current);
      a.addEventListener("click", (ev) => { ev.preventDefault(); openFile(f.path); });
      parent.append(a);
    }
  };
  const tree = $("tree");
  tree.textContent = "";
  build(root, tree);
}

async function loadTree() {
  const { data } = await api("GET", "/api/tree");
  state.dir = data.dir;
  state.files = data.files;
  $("folder").textContent = data.dir.split(/[\\/]/).pop();
  $("folder").title = data.dir;
  renderTree();
}

const kindOf = (path) => state.files.find((f) => f.path === path)?.kind || "file";

async function openFile(path, opts = {}) {
  if (state.current && view && state.buffers.has(state.current)) state.buffers.get(state.current).state = view.state;
  let buf = state.buffers.get(path);
  if (!buf || opts.reload) {
    let disk;
    try {
      disk = (await api("GET", "/api/file?path=" + encodeURIComponent(path))).data;
    } catch (e) {
      showBanner("Cannot open " + path + ": " + e.message, "error");
      return;
    }
    const draft = opts.reload ? null : await loadDraft(path);
    const text = draft && draft.text !== disk.text ? draft.text : disk.text;
    // A draft edited from an older version of the file is restored, and
    // flagged as changed on disk.
    buf = { base: draft ? draft.base : disk.version, diskDoc: Text.of(disk.text.split(/\r\n?|\n/)), diskVersion: disk.version,
      stale: !!draft && draft.base !== disk.version };
    buf.state = EditorState.create({ doc: text, extensions: extensions(path) });
    state.buffers.set(path, buf);
  }
  state.current = path;
  location.hash = encodeURIComponent(path);
  ensureView().setState(buf.state);
  $("file-name").textContent = path;
  $("save").disabled = false;
  $("actions-button").disabled = false;
  state.stages.clear();
  state.stageNotes.clear();
  renderTree();
  renderDirty();
  renderBanner();
  announceHolding();
  if (buf.stale) diskChanged(path, buf.diskVersion, "it changed on disk since this tab's draft was made");
  check();
}

let checkTimer = null;
let draftTimer = null;
function edited() {
  state.editedAt = performance.now();
  const path = state.current;
  const buf = state.buffers.get(path);
  buf.state = view.state;
  renderDirty();
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => { if (isDirty(path)) saveDraft(path, buf); else dropDraft(path); announceHolding(); }, 250);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, CHECK_DELAY);
}

function renderDirty() {
  const dirty = state.current && isDirty(state.current);
  $("dirty").hidden = !dirty;
  const a = document.querySelector(`#tree a[data-path="${CSS.escape(state.current || "")}"] span`);
  if (a) a.textContent = (state.current || "").split("/").pop() + (dirty ? " ●" : "");
}

// check sends the editor's text to the server, which answers with one JSON
// line per stage as each finishes; a newer check aborts this one.
async function check() {
  const path = state.current;
  if (!path) return;
  state.checkAbort?.abort();
  const abort = new AbortController();
  state.checkAbort = abort;
  const seq = ++state.checkSeq;
  const t0 = performance.now();
  const text = view.state.doc.toString();
  const started = performance.now();
  setStatus("checking…");
  document.body.dataset.checking = "true";
  let res;
  try {
    res = await fetch(`/api/check?path=${encodeURIComponent(path)}&client=${tabId}`, {
      method: "POST", signal: abort.signal,
      headers: { "X-Specgate-Token": token, "Content-Type": "text/plain; charset=utf-8" },
      body: text,
    });
    document.body.dataset.fetchMs = String(Math.round(performance.now() - t0));
  } catch (e) {
    if (e.name !== "AbortError") setStatus("check failed: " + e.message);
    return;
  }
  if (!res.ok) {
    setStatus("check failed: " + res.status);
    return;
  }
  const fresh = new Map();
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let pending = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += dec.decode(value, { stream: true });
      let nl;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (!line.trim() || seq !== state.checkSeq) continue;
        const st = JSON.parse(line);
        if (st.stage === "done") {
          // Stages that did not run this time (a parse error stops the
          // others) have nothing to say.
          state.stages = fresh;
          document.body.dataset.checking = "false";
          document.body.dataset.checked = String(seq);
          // The time from the last keystroke to the last markers, which
          // the tests measure.
          if (state.editedAt) document.body.dataset.editToDone = String(Math.round(performance.now() - state.editedAt)) + " (" + st.note + ")";
          setStatus(`checked in ${Math.round(performance.now() - started)} ms`);
        } else {
          if (state.editedAt) document.body.dataset["editTo" + st.stage[0].toUpperCase() + st.stage.slice(1)] = String(Math.round(performance.now() - state.editedAt)) + "/" + st.ms;
          fresh.set(st.stage, st.diagnostics);
          state.stages.set(st.stage, st.diagnostics);
          if (st.stage === "parse" && st.diagnostics.length) for (const k of [...state.stages.keys()]) if (k !== "parse") state.stages.delete(k);
          state.stageNotes.set(st.stage, `${st.stage} ${st.ms} ms${st.note ? " (" + st.note + ")" : ""}`);
        }
        scheduleShow();
      }
    }
  } catch (e) {
    if (e.name !== "AbortError") setStatus("check failed: " + e.message);
  }
}

// Columns count characters (code points); CodeMirror counts UTF-16 units.
function offsetOf(doc, line, col) {
  if (line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const l = doc.line(line);
  let units = 0, chars = 0;
  for (const ch of l.text) {
    if (chars >= col - 1) break;
    units += ch.length;
    chars++;
  }
  return l.from + units;
}

function allDiagnostics() {
  const out = [];
  for (const ds of state.stages.values()) out.push(...ds);
  const rank = { error: 0, warning: 1, info: 2 };
  // The open file's problems first, errors before warnings, each in the
  // order of the text.
  out.sort((a, b) => (a.file === state.current ? 0 : 1) - (b.file === state.current ? 0 : 1) || a.file.localeCompare(b.file) ||
    rank[a.severity] - rank[b.severity] || a.line - b.line || a.column - b.column);
  return out;
}

// Stages may arrive together: the markers and the panel are drawn once per
// frame.
let showPending = false;
function scheduleShow() {
  if (showPending) return;
  showPending = true;
  requestAnimationFrame(() => { showPending = false; showDiagnostics(); });
}

function showDiagnostics() {
  if (!view) return;
  const t0 = performance.now();
  try { showDiagnosticsNow(); } finally { document.body.dataset.showMs = String(Math.round(performance.now() - t0)); }
}

function showDiagnosticsNow() {
  const doc = view.state.doc;
  const list = allDiagnostics();
  const marks = [];
  for (const d of list) {
    if (d.file !== state.current) continue;
    const from = offsetOf(doc, d.line || 1, d.column || 1);
    let to = d.endLine ? offsetOf(doc, d.endLine, d.endColumn || 1) : from;
    if (to <= from) to = Math.min(doc.length, Math.max(from + 1, doc.lineAt(from).to));
    marks.push({
      from, to, severity: d.severity, source: d.source + (d.rule ? " " + d.rule : ""), message: d.message,
      renderMessage: () => {
        const span = document.createElement("span");
        span.textContent = d.message + " ";
        if (d.url) {
          const a = document.createElement("a");
          a.href = d.url; a.target = "_blank"; a.rel = "noopener";
          a.textContent = d.rule || "docs";
          span.append(a);
        }
        return span;
      },
    });
  }
  view.dispatch(setDiagnostics(view.state, marks));
  renderProblems(list);
}

// The panel shows the first MAX_ROWS problems (a large spec has thousands
// of lint findings); the editor marks them all.
const MAX_ROWS = 500;

function renderProblems(list) {
  const body = $("problems-table").tBodies[0];
  body.textContent = "";
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of list) counts[d.severity]++;
  for (const d of list.slice(0, MAX_ROWS)) {
    const tr = body.insertRow();
    tr.dataset.severity = d.severity;
    tr.dataset.source = d.source;
    tr.dataset.rule = d.rule || "";
    tr.dataset.line = d.line;
    const cell = (cls, text) => { const td = tr.insertCell(); td.className = cls; td.textContent = text; return td; };
    cell("sev sev-" + d.severity, d.severity);
    cell("src", d.source);
    const rule = cell("rule", "");
    if (d.url) {
      const a = document.createElement("a");
      a.href = d.url; a.target = "_blank"; a.rel = "noopener"; a.textContent = d.rule || "docs";
      a.addEventListener("click", (ev) => ev.stopPropagation());
      rule.append(a);
    } else rule.textContent = d.rule || "";
    cell("msg", d.message);
    cell("loc", `${d.file}:${d.line}:${d.column}`);
    tr.addEventListener("click", () => jump(d));
  }
  if (list.length > MAX_ROWS) {
    const tr = body.insertRow();
    const td = tr.insertCell();
    td.colSpan = 5;
    td.className = "more";
    td.textContent = `and ${list.length - MAX_ROWS} more: the editor marks them all (F8 goes to the next one)`;
  }
  $("counts").textContent = `${counts.error} errors, ${counts.warning} warnings, ${counts.info} info`;
  $("stages").textContent = [...state.stageNotes.values()].join(" · ");
}

async function jump(d) {
  if (d.file !== state.current) {
    if (!state.files.some((f) => f.path === d.file)) return;
    await openFile(d.file);
  }
  const pos = offsetOf(view.state.doc, d.line || 1, d.column || 1);
  view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
  view.focus();
}

// Saving: the server refuses a save over a file that changed on disk since
// the text was opened; the page then shows both and asks.
async function save(force = false) {
  const path = state.current;
  if (!path) return false;
  const buf = state.buffers.get(path);
  const text = view.state.doc.toString();
  let status, data;
  try {
    ({ status, data } = await api("PUT", "/api/file", { path, text, base: buf.base, force }, { allow: [409] }));
  } catch (e) {
    // Nothing was written; the draft keeps the text.
    showBanner(`${path} was not saved: ${e.message}`, "error");
    return false;
  }
  if (status === 409) {
    conflict(path, data.disk);
    return false;
  }
  buf.base = data.version;
  buf.diskDoc = Text.of(text.split(/\r\n?|\n/));
  buf.diskVersion = data.version;
  buf.stale = false;
  dropDraft(path);
  renderDirty();
  hideBanner();
  setStatus("saved " + path);
  announce("saved", { path, version: data.version });
  announceHolding();
  return true;
}
$("save").addEventListener("click", () => save());

function conflict(path, disk) {
  const mine = view.state.doc.toString();
  const body = document.createElement("div");
  const p = document.createElement("p");
  p.textContent = disk.version
    ? `${path} changed on disk since you opened it. Nothing was written. Here is how your text differs from the file on disk:`
    : `${path} was deleted on disk since you opened it. Nothing was written.`;
  body.append(p, renderDiff(lineDiff(disk.text, mine, "on disk", "yours")));
  const cmp = document.createElement("div");
  cmp.className = "compare";
  for (const [title, text] of [["On disk", disk.text], ["Yours", mine]]) {
    const col = document.createElement("div");
    const h = document.createElement("strong");
    h.textContent = title;
    const pre = document.createElement("pre");
    pre.textContent = text;
    col.append(h, pre);
    cmp.append(col);
  }
  body.append(cmp);
  dialog("Changed on disk", body, [
    { label: "Cancel", value: "cancel" },
    { label: "Take the disk version", value: "disk", id: "conflict-disk" },
    { label: "Overwrite with mine", value: "mine", cls: "danger", id: "conflict-mine" },
  ], async (choice) => {
    const buf = state.buffers.get(path);
    if (choice === "mine") {
      buf.base = disk.version;
      await save(true);
    } else if (choice === "disk") {
      dropDraft(path);
      state.buffers.delete(path);
      await openFile(path, { reload: true });
    }
  });
}

// The open file changed on disk: a clean buffer takes the new text; one
// with edits keeps them and says so.
async function diskChanged(path, version, why) {
  const buf = state.buffers.get(path);
  if (!buf || version === buf.base) return;
  if (!isDirty(path)) {
    const pos = path === state.current ? view.state.selection.main.head : 0;
    state.buffers.delete(path);
    if (path === state.current) {
      await openFile(path, { reload: true });
      view.dispatch({ selection: { anchor: Math.min(pos, view.state.doc.length) } });
      setStatus(`reloaded ${path}: ${why}`);
    }
    return;
  }
  buf.changedOnDisk = why;
  if (path === state.current) renderBanner();
}

async function poll() {
  const path = state.current;
  if (path && document.visibilityState === "visible") {
    try {
      const { data } = await api("GET", "/api/version?path=" + encodeURIComponent(path));
      if (data.version !== state.buffers.get(path)?.base) diskChanged(path, data.version, data.version ? "it changed on disk" : "it was deleted on disk");
    } catch { /* the next poll tries again */ }
  }
  setTimeout(poll, POLL_EVERY);
}

function renderBanner() {
  const path = state.current;
  const buf = path && state.buffers.get(path);
  const parts = [];
  if (buf?.changedOnDisk) parts.push(`${path} changed on disk (${buf.changedOnDisk}) while you have unsaved edits.`);
  const others = path ? [...(state.others.get(path) || [])] : [];
  if (others.length) parts.push(`Also open in ${others.map((t) => "tab " + t).join(", ")}.`);
  if (!parts.length) return hideBanner();
  showBanner(parts.join(" "), buf?.changedOnDisk ? "error" : "", buf?.changedOnDisk ? [{ label: "Compare", run: async () => {
    const { data } = await api("GET", "/api/file?path=" + encodeURIComponent(path), undefined, { allow: [404] });
    conflict(path, data.text !== undefined ? data : { text: "", version: "" });
  } }] : []);
}
function showBanner(text, cls = "", buttons = []) {
  const b = $("banner");
  b.textContent = "";
  b.className = "banner " + cls;
  const span = document.createElement("span");
  span.textContent = text;
  b.append(span);
  for (const btn of buttons) {
    const el = document.createElement("button");
    el.type = "button";
    el.textContent = btn.label;
    el.addEventListener("click", btn.run);
    b.append(el);
  }
  b.hidden = false;
}
function hideBanner() { $("banner").hidden = true; }

// A dialog with buttons; onChoose gets the value of the button pressed.
function dialog(title, body, buttons, onChoose) {
  const d = $("dialog");
  $("dialog-title").textContent = title;
  const holder = $("dialog-body");
  holder.textContent = "";
  holder.append(body);
  const row = $("dialog-buttons");
  row.textContent = "";
  for (const b of buttons) {
    const el = document.createElement("button");
    el.type = "button";
    el.textContent = b.label;
    if (b.id) el.id = b.id;
    if (b.cls) el.className = b.cls;
    el.addEventListener("click", async () => {
      if (b.value === "cancel") return d.close();
      el.disabled = true;
      try {
        if ((await onChoose(b.value)) !== false) d.close();
      } catch (e) {
        const err = document.createElement("p");
        err.className = "banner error";
        err.textContent = e.message;
        holder.prepend(err);
      } finally {
        el.disabled = false;
      }
    });
    row.append(el);
  }
  if (!d.open) d.showModal();
}

// A small line diff (longest common subsequence on lines) for the conflict
// view; action previews come with the server's unified diff.
function lineDiff(a, b, nameA, nameB) {
  const x = a.split("\n"), y = b.split("\n");
  let pre = 0;
  while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
  let suf = 0;
  while (suf < x.length - pre && suf < y.length - pre && x[x.length - 1 - suf] === y[y.length - 1 - suf]) suf++;
  const xm = x.slice(pre, x.length - suf), ym = y.slice(pre, y.length - suf);
  const out = [`--- ${nameA}`, `+++ ${nameB}`];
  if (xm.length * ym.length > 4e6) {
    out.push(`@@ -${pre + 1} +${pre + 1} @@`, ...xm.map((l) => "-" + l), ...ym.map((l) => "+" + l));
    return out.join("\n");
  }
  const m = xm.length, n = ym.length;
  const lcs = Array.from({ length: m + 1 }, () => new Uint32Array(n + 1));
  for (let i = m - 1; i >= 0; i--) for (let j = n - 1; j >= 0; j--) lcs[i][j] = xm[i] === ym[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  out.push(`@@ line ${pre + 1} @@`);
  for (const l of x.slice(Math.max(0, pre - 2), pre)) out.push(" " + l);
  let i = 0, j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && xm[i] === ym[j]) { out.push(" " + xm[i]); i++; j++; }
    else if (i < m && (j === n || lcs[i + 1][j] >= lcs[i][j + 1])) { out.push("-" + xm[i]); i++; }
    else { out.push("+" + ym[j]); j++; }
  }
  for (const l of x.slice(x.length - suf, x.length - suf + 2)) out.push(" " + l);
  return out.join("\n");
}

function renderDiff(text) {
  const box = document.createElement("div");
  box.className = "diff";
  for (const line of text.replace(/\n$/, "").split("\n")) {
    const div = document.createElement("div");
    if (line.startsWith("@@")) div.className = "hunk";
    else if (line.startsWith("+") && !line.startsWith("+++")) div.className = "add";
    else if (line.startsWith("-") && !line.startsWith("---")) div.className = "del";
    div.textContent = line || " ";
    box.append(div);
  }
  return box;
}

// Actions: each is previewed (the server computes the changes and their
// diffs and writes nothing), then applied with the versions the preview
// saw, which the server checks again.
async function runAction(name, params, title) {
  if (state.current && isDirty(state.current)) {
    if (!(await save())) return;
  }
  let plan;
  try {
    plan = (await api("POST", "/api/actions/" + name, { params, apply: false })).data;
  } catch (e) {
    showBanner(`${title}: ${e.message}`, "error");
    return;
  }
  const body = document.createElement("div");
  body.id = "plan";
  const summary = document.createElement("p");
  summary.textContent = plan.summary;
  body.append(summary);
  for (const n of plan.notes || []) {
    const p = document.createElement("p");
    p.className = "notes";
    p.textContent = n;
    body.append(p);
  }
  for (const c of plan.changes) {
    const h = document.createElement("div");
    h.className = "change-head";
    h.dataset.op = c.op;
    h.dataset.path = c.path;
    h.textContent = `${c.op} ${c.path}${c.to ? " → " + c.to : ""}`;
    body.append(h);
    if (c.diff) body.append(renderDiff(c.diff));
  }
  const buttons = [{ label: "Cancel", value: "cancel" }];
  if (plan.changes.length) buttons.push({ label: "Apply", value: "apply", cls: "primary", id: "apply" });
  dialog(title, body, buttons, async () => {
    const expect = {};
    for (const c of plan.changes) expect[c.path] = c.base;
    document.body.dataset.busy = "true";
    try {
      const done = (await api("POST", "/api/actions/" + name, { params, apply: true, expect })).data;
      await afterAction(done);
      setStatus(done.summary);
    } finally {
      document.body.dataset.busy = "false";
    }
  });
}

// After an action, the tree is read again and the open buffers follow the
// files that changed: renamed ones take their new name, clean ones reload.
async function afterAction(plan) {
  await loadTree();
  let was = state.current;
  for (const c of plan.changes) {
    if (c.op === "rename" && state.buffers.has(c.path)) {
      // A renamed file follows its new name; unsaved edits go with it.
      const buf = state.buffers.get(c.path);
      const dirty = isDirty(c.path);
      state.buffers.delete(c.path);
      dropDraft(c.path);
      if (dirty) {
        state.buffers.set(c.to, buf);
        saveDraft(c.to, buf);
      }
      if (was === c.path) was = c.to;
    } else if ((c.op === "write" || c.op === "delete") && state.buffers.has(c.path)) {
      // The buffer was saved before the action: it takes the new text.
      state.buffers.delete(c.path);
      dropDraft(c.path);
    }
  }
  const current = was && state.files.some((f) => f.path === was) ? was : plan.open || null;
  state.current = null;
  if (current) await openFile(current, { reload: !state.buffers.has(current) });
  else renderTree();
}

function field(label, input) {
  const l = document.createElement("label");
  l.className = "field";
  l.append(label, input);
  return l;
}
function textInput(id, value) {
  const i = document.createElement("input");
  i.type = "text"; i.id = id; i.value = value;
  return i;
}
function checkbox(id, label, checked) {
  const l = document.createElement("label");
  const i = document.createElement("input");
  i.type = "checkbox"; i.id = id; i.checked = checked;
  l.append(i, " " + label);
  return l;
}

// ask shows a form and resolves with the values, or null on cancel.
function ask(title, body) {
  return new Promise((resolve) => {
    const d = $("dialog");
    let chosen = false;
    d.addEventListener("close", () => { if (!chosen) resolve(null); }, { once: true });
    dialog(title, body, [{ label: "Cancel", value: "cancel" }, { label: "Preview", value: "ok", cls: "primary", id: "ask-ok" }], () => {
      chosen = true;
      resolve(true);
    });
  });
}

const actions = {
  rename: { label: "Rename…", when: (k) => k === "spec" || k === "example" || k === "file", run: async (path) => {
    const to = textInput("rename-to", path);
    if (!(await ask("Rename " + path, field("New path", to)))) return;
    runAction("rename", { path, to: to.value }, "Rename " + path);
  } },
  importExamples: { label: "Import external examples into the spec", when: (k) => k === "spec", run: async (path) => {
    const remove = checkbox("import-remove", "Delete the example files once imported", true);
    if (!(await ask("Import examples into " + path, remove))) return;
    runAction("import-examples", { spec: path, remove: $("import-remove").checked }, "Import examples into " + path);
  } },
  exportExamples: { label: "Export inline examples to files", when: (k) => k === "spec", run: async (path) => {
    const remove = checkbox("export-remove", "Remove the inline examples from the spec", false);
    if (!(await ask("Export the inline examples of " + path, remove))) return;
    runAction("export-examples", { spec: path, remove: $("export-remove").checked }, "Export the examples of " + path);
  } },
  generate: { label: "Generate examples for an operation…", when: (k) => k === "spec", run: async (path) => {
    const { data } = await api("GET", "/api/operations?path=" + encodeURIComponent(path));
    const sel = document.createElement("select");
    sel.id = "generate-operation";
    for (const op of data.operations) {
      const o = document.createElement("option");
      o.value = op.key; o.textContent = op.key + (op.operationId ? "  (" + op.operationId + ")" : "");
      sel.append(o);
    }
    if (!(await ask("Generate examples", field("Operation", sel)))) return;
    runAction("generate-examples", { spec: path, operation: sel.value }, "Generate examples for " + sel.value);
  } },
  validate: { label: "Validate examples", when: (k) => k === "spec" || k === "example", run: async () => {
    await check();
    const first = document.querySelector('#problems-table tr[data-source="examples"]');
    setStatus(first ? "example problems are in the panel" : "the examples are valid");
    first?.scrollIntoView({ block: "nearest" });
  } },
  fix: { label: "Fix examples", when: (k) => k === "spec" || k === "example", run: (path) => {
    const k = kindOf(path);
    runAction("fix-examples", k === "spec" ? { spec: path } : { file: path }, "Fix examples");
  } },
  addResponse: { label: "Add an unexpected response from a test report…", when: (k) => k === "spec" || k === "report", run: async (path) => {
    const reports = state.files.filter((f) => f.kind === "report");
    const sel = document.createElement("select");
    sel.id = "report-file";
    for (const r of reports) {
      const o = document.createElement("option");
      o.value = r.path; o.textContent = r.path;
      sel.append(o);
    }
    const other = textInput("report-path", kindOf(path) === "report" ? path : reports[0]?.path || "specgate-reports/ctrf-report.json");
    sel.addEventListener("change", () => { other.value = sel.value; });
    const box = document.createElement("div");
    box.append(field("CTRF report (from specgate test)", sel), field("or its path", other));
    if (!(await ask("Open a test report", box))) return;
    let rep;
    try {
      rep = (await api("GET", "/api/report?path=" + encodeURIComponent(other.value))).data;
    } catch (e) {
      showBanner("Cannot read the report: " + e.message, "error");
      return;
    }
    const pick = document.createElement("div");
    pick.className = "pick";
    let first = true;
    for (const t of rep.tests) {
      const l = document.createElement("label");
      const i = document.createElement("input");
      i.type = "radio"; i.name = "test"; i.value = t.index; i.disabled = !t.addable; i.checked = t.addable && first;
      if (t.addable) first = false;
      l.append(i, ` ${t.method} ${t.path} → ${t.status} ${t.contentType || ""}  ${t.addable ? "" : "(" + t.why + ")"}  ${t.message}`);
      pick.append(l);
    }
    if (!rep.tests.length) pick.textContent = "No failed test in this report.";
    if (!(await ask("Failed tests of " + other.value, pick))) return;
    const chosen = pick.querySelector("input:checked");
    if (!chosen) return;
    runAction("add-response", { report: other.value, test: Number(chosen.value) }, "Add the response to the spec");
  } },
  upgrade: { label: "Upgrade specgate.yaml to version 3", when: (k) => k === "config", run: (path) => runAction("upgrade-config", { path }, "Upgrade " + path) },
};

$("actions-button").addEventListener("click", () => {
  const menu = $("actions-menu");
  if (!menu.hidden) { menu.hidden = true; return; }
  menu.textContent = "";
  const k = kindOf(state.current);
  for (const [id, a] of Object.entries(actions)) {
    if (!a.when(k)) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = id;
    b.textContent = a.label;
    b.addEventListener("click", () => { menu.hidden = true; a.run(state.current); });
    menu.append(b);
  }
  menu.hidden = false;
});
document.addEventListener("click", (ev) => {
  if (!ev.target.closest(".menu")) $("actions-menu").hidden = true;
});
window.addEventListener("beforeunload", () => {
  for (const [p, b] of state.buffers) if (isDirty(p)) saveDraft(p, b);
});

// The studio's page API for tests and for people at the console.
window.studio = {
  openFile, check, save, runAction, state: () => state, view: () => view,
  // The editor's markers: line, severity and source of each.
  markers: () => {
    const out = [];
    if (view) forEachDiagnostic(view.state, (d, from) => out.push({ line: view.state.doc.lineAt(from).number, severity: d.severity, source: d.source, message: d.message }));
    return out;
  },
  // Moves the cursor to the end of a line, as a click there would.
  cursorAtEnd: (line) => {
    const l = view.state.doc.line(line);
    view.dispatch({ selection: { anchor: l.to }, scrollIntoView: true });
    view.focus();
  },
};

async function start() {
  if (!token) {
    showBanner("This page needs the studio's token: open the URL that `specgate studio` printed.", "error");
    return;
  }
  try {
    await loadTree();
  } catch (e) {
    showBanner("Cannot reach the studio: " + e.message, "error");
    return;
  }
  announce("hello", { files: [] });
  const want = decodeURIComponent(location.hash.slice(1));
  const first = state.files.find((f) => f.path === want) || state.files.find((f) => f.kind === "spec");
  if (first) await openFile(first.path);
  document.body.dataset.ready = "true";
  setTimeout(poll, POLL_EVERY);
}
start();
