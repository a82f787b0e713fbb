// oprlab serve: the one script of the pages. No framework, no build step.
// It reads files into the list boxes, steps replays (the step is in the URL fragment), and
// sends a person's decisions; every decision is checked again by the server's rules engine.
"use strict";

const MAX_LIST_CHARS = 60000;

function $(sel, root) { return (root || document).querySelector(sel); }
function $all(sel, root) { return Array.from((root || document).querySelectorAll(sel)); }

function showError(text) {
  let p = $("#error");
  if (!p) {
    p = document.createElement("p");
    p.id = "error";
    p.className = "error";
    $("main").prepend(p);
  }
  p.textContent = text;
}

function clearError() {
  const p = $("#error");
  if (p) p.remove();
}

// --- lists read from files (the file stays in the browser; only its text is sent) ---
function setupFileInputs() {
  for (const input of $all("input.read-file")) {
    input.addEventListener("change", () => {
      const file = input.files[0];
      if (!file) return;
      if (file.size > MAX_LIST_CHARS * 4) {
        showError("error: " + file.name + ": file too large (at most " + MAX_LIST_CHARS + " characters)");
        return;
      }
      file.text().then((text) => {
        const box = $("#" + input.dataset.into);
        box.value = text;
        box.dispatchEvent(new Event("change"));
      });
    });
  }
}

// --- the odds form: a new list empties its unit choice (the server then takes its first) ---
function setupOddsForm() {
  for (const [list, unit] of [["a", "attacker"], ["d", "defender"]]) {
    const select = $("#" + unit);
    if (!select) continue;
    for (const el of [$("#" + list), $("#" + list + "_text")]) {
      if (el) el.addEventListener("change", () => select.replaceChildren());
    }
  }
}

// --- a game's form: a system offers its own mechanics, dice designs and the samples of its army format ---
function setupSystemPicker() {
  const system = $("select.system-picker");
  if (!system) return;
  function offer(select, fits) {
    if (!select) return;
    for (const o of select.options) o.disabled = !fits(o);
    const chosen = select.options[select.selectedIndex];
    if (chosen && chosen.disabled) {
      const first = Array.from(select.options).find((o) => !o.disabled);
      if (first) select.value = first.value;
    }
  }
  function update() {
    const picked = system.options[system.selectedIndex];
    const format = picked.dataset.format;
    for (const id of ["#mechanic", "#dice"]) {
      offer($(id), (o) => (o.dataset.systems || "").split(" ").includes(system.value));
    }
    for (const id of ["#a", "#b"]) offer($(id), (o) => !o.dataset.format || o.dataset.format === format);
  }
  system.addEventListener("change", update);
  update();
}

// --- the replay viewer ---
function setupReplay() {
  const viewer = $("#viewer");
  if (!viewer || !$("template.frame")) return;
  const frames = $all("template.frame");
  const items = $all("#log li");
  const scrubber = $("#scrubber");
  const board = $("#board");
  let step = -1;
  let timer = null;

  function show(n, fromHash) {
    n = Math.max(0, Math.min(frames.length - 1, n | 0));
    if (n === step) return;
    step = n;
    board.replaceChildren(frames[n].content.cloneNode(true));
    for (const li of items) li.classList.toggle("current", Number(li.dataset.step) === n);
    const li = items[n];
    if (li) li.scrollIntoView({ block: "nearest" });
    scrubber.value = String(n);
    $("#step-label").textContent = "step " + n + " of " + (frames.length - 1);
    if (!fromHash) history.replaceState(null, "", "#step=" + n);
  }

  function fromHash() {
    const m = /step=(\d+)/.exec(location.hash);
    show(m ? Number(m[1]) : 0, true);
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("#playpause").textContent = "▶ play";
  }

  function play() {
    if (step >= frames.length - 1) show(0);
    $("#playpause").textContent = "⏸ pause";
    timer = setInterval(() => {
      if (step >= frames.length - 1) pause(); else show(step + 1);
    }, Number($("#speed").value));
  }

  $("#first").onclick = () => { pause(); show(0); };
  $("#last").onclick = () => { pause(); show(frames.length - 1); };
  $("#back").onclick = () => { pause(); show(step - 1); };
  $("#forward").onclick = () => { pause(); show(step + 1); };
  $("#playpause").onclick = () => { if (timer === null) play(); else pause(); };
  $("#speed").onchange = () => { if (timer !== null) { pause(); play(); } };
  scrubber.oninput = () => { pause(); show(Number(scrubber.value)); };
  for (const a of $all("#log a.step-title")) {
    a.onclick = (e) => { e.preventDefault(); pause(); show(Number(a.parentElement.dataset.step)); };
  }
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") { pause(); show(step + 1); }
    else if (e.key === "ArrowLeft") { pause(); show(step - 1); }
    else if (e.key === " ") { e.preventDefault(); $("#playpause").click(); }
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
}

// --- opening a saved game ---
function setupOpen() {
  const input = $("#open-game");
  if (!input) return;
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    let data;
    try { data = JSON.parse(await file.text()); } catch (err) {
      showError("error: " + file.name + ": not JSON (" + err.message + ")");
      return;
    }
    const r = await fetch("/api/games", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(data),
    });
    const body = await r.json();
    if (r.ok) location.href = body.url; else showError(body.error || JSON.stringify(body.detail));
  });
}

// --- playing ---
function setupPlay() {
  const root = $("#play");
  if (!root) return;
  const key = root.dataset.key;
  let view = JSON.parse($("#initial").textContent);
  let selected = null;

  function svg() { return $("#board svg"); }

  function unitsWithActions() {
    const units = [];
    for (const a of view.actions) if (!units.includes(a.unit)) units.push(a.unit);
    return units;
  }

  function drawReach(root) {
    // The unit's reach with each move (widest first, so the nearer ones sit on top).
    const NS = "http://www.w3.org/2000/svg";
    const layer = document.createElementNS(NS, "g");
    layer.setAttribute("class", "reach-layer");
    for (const r of (view.reach || {})[selected] || []) {
      const path = document.createElementNS(NS, "path");
      path.setAttribute("class", "reach reach-" + r.kind);
      path.dataset.kind = r.kind;
      path.dataset.inches = String(r.inches);
      path.setAttribute("d", r.d);
      path.setAttribute("fill-rule", "evenodd");
      const t = document.createElementNS(NS, "title");
      t.textContent = r.kind + ": up to " + r.inches + "\" from a model, 6\" through difficult terrain";
      path.append(t);
      layer.append(path);
    }
    const first = root.querySelector("g.unit");
    if (first) first.parentNode.insertBefore(layer, first); else root.append(layer);
  }

  function drawHints(actions) {
    const root = svg();
    if (!root) return;
    for (const c of $all("circle.goal, g.reach-layer", root)) c.remove();
    for (const g of $all("g.unit", root)) {
      g.classList.toggle("selected", g.dataset.unit === selected);
      g.classList.remove("target", "target-shoot", "target-charge");
    }
    drawReach(root);
    const legend = $("#reach-legend");
    if (legend) legend.hidden = !((view.reach || {})[selected] || []).length && !actions.some((a) => a.action.target);
    for (const a of actions) {
      const act = a.action;
      if (act.to) {
        const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
        c.setAttribute("class", "goal");
        c.setAttribute("cx", act.to[0]);
        c.setAttribute("cy", view.table[1] - act.to[1]);
        c.setAttribute("r", "0.45");
        const t = document.createElementNS("http://www.w3.org/2000/svg", "title");
        t.textContent = a.label;
        c.append(t);
        c.addEventListener("click", () => send(act));
        root.append(c);
      }
      for (const uid of [act.target, act.second]) {
        const g = uid && root.querySelector('g.unit[data-unit="' + CSS.escape(uid) + '"]');
        if (g) g.classList.add("target", act.kind === "charge" ? "target-charge" : "target-shoot");
      }
    }
  }

  function select(unit) {
    selected = unit;
    for (const b of $all("#choose-unit button")) b.classList.toggle("selected", b.dataset.unit === unit);
    const box = $("#choose-action");
    box.replaceChildren();
    const mine = view.actions.filter((a) => a.unit === unit);
    const kinds = [];
    for (const a of mine) if (a.action.to && unit && !kinds.includes(a.action.kind)) kinds.push(a.action.kind);
    if (kinds.length) {
      const label = document.createElement("label");
      label.append("or click the table to ");
      const pick = document.createElement("select");
      pick.id = "free-kind";
      for (const k of kinds) pick.append(new Option(k, k));
      label.append(pick, " there (the server checks the point)");
      box.append(label, document.createElement("br"));
    }
    for (const a of mine) {
      const b = document.createElement("button");
      b.className = "action";
      b.textContent = a.label;
      b.onclick = () => send(a.action);
      box.append(b);
    }
    drawHints(mine);
  }

  function render() {
    root.dataset.step = String(view.step);
    $("#board").innerHTML = view.svg;
    const log = $("#log");
    log.replaceChildren();
    view.log.forEach((f, i) => {
      const li = document.createElement("li");
      li.dataset.step = String(i);
      const title = document.createElement("b");
      title.textContent = f.title;
      li.append(title);
      for (const line of f.lines) {
        const d = document.createElement("div");
        d.className = "line";
        d.textContent = line;
        li.append(d);
      }
      li.classList.toggle("current", i === view.log.length - 1);
      log.append(li);
    });
    if (log.lastElementChild) log.lastElementChild.scrollIntoView({ block: "nearest" });
    const status = $("#status");
    const units = $("#choose-unit");
    units.replaceChildren();
    $("#choose-action").replaceChildren();
    if (view.done) {
      status.innerHTML = "";
      const strong = document.createElement("strong");
      strong.id = "game-over";
      strong.textContent = "Game over: " + view.result;
      const replay = document.createElement("a");
      replay.href = "/replay/saved/" + key;
      replay.id = "to-replay";
      replay.textContent = "watch it as a replay";
      const save = document.createElement("a");
      save.href = "/api/games/" + key;
      save.textContent = "save it";
      status.append(strong, " · ", replay, " · ", save);
      return;
    }
    status.textContent = "Round " + view.round + " (" + view.phase + "): " +
      (view.your_turn ? view.active + " to decide, step " + view.step : "the computer is thinking");
    for (const uid of unitsWithActions()) {
      const b = document.createElement("button");
      b.className = "unit";
      b.dataset.unit = uid;
      b.textContent = uid ? view.names[uid] || uid : "the table";
      b.onclick = () => select(uid);
      units.append(b);
    }
    const board = svg();
    if (board) {
      board.addEventListener("click", (e) => {
        const pick = $("#free-kind");
        if (!pick || !selected || e.target.closest("g.unit, circle.goal")) return;
        const p = board.createSVGPoint();
        p.x = e.clientX;
        p.y = e.clientY;
        const at = p.matrixTransform(board.getScreenCTM().inverse());
        const x = Math.round(at.x * 10) / 10;
        const y = Math.round((view.table[1] - at.y) * 10) / 10;
        if (x < 0 || y < 0 || x > view.table[0] || y > view.table[1]) return;
        send({ kind: pick.value, unit: selected, to: [x, y] });
      });
    }
    for (const g of $all("#board g.unit")) {
      g.addEventListener("click", () => {
        if (unitsWithActions().includes(g.dataset.unit)) select(g.dataset.unit);
      });
    }
    const units1 = unitsWithActions();
    if (units1.length === 1) select(units1[0]);
  }

  async function send(action) {
    clearError();
    root.dataset.busy = "1";
    for (const b of $all("#choose-action button, #choose-unit button")) b.disabled = true;
    const r = await fetch("/api/play/" + key, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ step: view.step, action: action }),
    });
    const body = await r.json();
    if (r.ok) { view = body; selected = null; } else { showError(body.error || JSON.stringify(body.detail)); }
    render();
    root.dataset.busy = "0";
  }

  render();
  root.dataset.busy = "0";
}

// --- the experiments: poll the status; a new experiment or a new state reloads the page ---
const POLL_MS = 3000;

function runText(e) {
  const p = e.progress;
  if (!p || e.state !== "running") return "";
  let text = p.done + " of " + p.planned + " planned so far";
  if (p.games_per_s) text += ", " + p.games_per_s.toFixed(2) + " games/s, about " + Math.round(p.eta_s) + " s left";
  return text + " (written " + p.updated + ")";
}

function setupLabPoll() {
  const table = $("table[data-poll]");
  if (!table) return;
  async function poll() {
    let body;
    try {
      const r = await fetch(table.dataset.poll);
      if (!r.ok) return;
      body = await r.json();
    } catch (e) { return; }
    const entries = body.experiments || [body];
    const rows = $all("tr.lab-row", table);
    const changed = entries.length !== rows.length || entries.some((e) => {
      const row = $('tr.lab-row[data-id="' + e.id + '"]', table);
      return !row || row.dataset.state !== e.state;
    });
    if (changed) { location.reload(); return; }
    for (const e of entries) {
      const row = $('tr.lab-row[data-id="' + e.id + '"]', table);
      $("progress", row).value = e.fraction;
      $(".done", row).textContent = e.done;
      $(".most", row).textContent = e.most;
      $(".rate", row).textContent = runText(e);
    }
  }
  setInterval(poll, POLL_MS);
}

document.addEventListener("DOMContentLoaded", () => {
  setupLabPoll();
  setupFileInputs();
  setupOddsForm();
  setupSystemPicker();
  setupReplay();
  setupOpen();
  setupPlay();
});
