// The luahost inspector's page. It reads the JSON API of the inspector
// that served it (relative URLs, so it works under any prefix) and
// refreshes on the server-sent events of api/stream: no polling loop of
// its own, no framework, no build step, nothing fetched from elsewhere.

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);

// Refresh periods in milliseconds, at most: a page left open costs the
// world a copy of its entities four times a second, less often in worlds
// of more than ENTITIES_STEP entities (one period more per step).
const ENTITIES_EVERY = 250;
const ENTITIES_STEP = 2000;
const DETAIL_EVERY = 250;
const BLACKBOARD_EVERY = 1000;
const CHART_SECONDS = 10;
const MAX_LIST = 500;
const MAX_LOG = 200;

const state = {
  world: null,
  entities: [],
  selected: null,
  // listKey and detailKey are what the list and the detail last showed.
  listKey: "",
  detailKey: "",
  readonly: false,
  view: { cx: 0, cz: 0, scale: 20, fitted: false },
  history: [],
  problem: "",
  // drawn and labels are what the map last showed (window.inspector).
  drawn: 0,
  labels: [],
};

// api calls the inspector's API: a GET, or a POST of body as JSON.
async function api(path, body) {
  const opts = { headers: {} };
  if (token) opts.headers.Authorization = "Bearer " + token;
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch("api/" + path, opts);
  const data = await resp.json().catch(() => ({ error: resp.status + " " + resp.statusText }));
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  return data;
}

// throttled returns a function that runs fn at most once every ms (a
// number, or a function giving it), never twice at a time, and once more
// after a run when asked meanwhile.
function throttled(ms, fn) {
  const period = typeof ms === "function" ? ms : () => ms;
  let timer = null, running = false, again = false, last = -Infinity;
  const go = async () => {
    timer = null;
    running = true;
    last = performance.now();
    try {
      await fn();
      clearProblem();
    } catch (e) {
      problem(e);
    }
    running = false;
    if (again) {
      again = false;
      kick();
    }
  };
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    if (timer === null) timer = setTimeout(go, Math.max(0, last + period() - performance.now()));
  };
  return kick;
}

function problem(e) {
  // fetch fails with a TypeError when the server is gone.
  state.problem = e instanceof TypeError ? "disconnected" : String(e.message || e);
  $("state").textContent = state.problem;
  $("state").className = "badge gone";
}

function clearProblem() {
  if (state.problem) {
    state.problem = "";
    showWorld(state.world);
  }
}

// el builds an element with a class and text (never HTML).
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function fmt(n, digits = 2) {
  return typeof n === "number" ? n.toFixed(digits) : String(n);
}

// PALETTE are colours far apart from each other on the dark background,
// given to names in the order the page first sees them; past the
// palette, hues go round the circle by the golden angle, so that
// neighbours in that order stay apart.
const PALETTE = ["#4e9ff5", "#f5a623", "#5fd068", "#f0506e", "#b07cf7", "#2fd4d0",
  "#f2e14c", "#f07ad6", "#a3e05a", "#ff8a5c", "#8c9eff", "#d9b38c"];
const colours = new Map();

// colour returns a stable colour for a name.
function colour(name) {
  if (!name) return "#6c7280";
  let c = colours.get(name);
  if (!c) {
    const i = colours.size;
    c = i < PALETTE.length ? PALETTE[i] : `hsl(${Math.round((i * 137.508) % 360)}, 75%, 62%)`;
    colours.set(name, c);
  }
  return c;
}

// ---- the world's figures and controls

function showWorld(w) {
  if (!w) return;
  state.world = w;
  state.readonly = w.readonly;
  $("frame").textContent = w.frame;
  $("time").textContent = fmt(w.time) + " s";
  $("entity-count").textContent = w.entities;
  $("instance-count").textContent = w.instances;
  $("frame-ms").textContent = fmt(w.frameMs, 3) + " ms";
  $("error-count").textContent = w.errors;
  if (!state.problem) {
    $("state").textContent = w.paused ? "paused" : "running";
    $("state").className = "badge " + (w.paused ? "paused" : "running");
  }
  document.body.dataset.frame = w.frame;
  document.body.dataset.paused = w.paused;
  for (const id of ["pause", "step", "resume"]) $(id).hidden = w.readonly;
  $("pause").disabled = w.paused;
  $("step").disabled = !w.paused;
  $("resume").disabled = !w.paused;
  $("bb-add").hidden = w.readonly;
  $("console").hidden = w.readonly;
}

async function control(what) {
  try {
    showWorld(await api(what, {}));
    refreshAll();
  } catch (e) {
    problem(e);
  }
}

// ---- entities: list and canvas

const entitiesEvery = () => ENTITIES_EVERY * Math.max(1, Math.ceil(state.entities.length / ENTITIES_STEP));

const refreshEntities = throttled(entitiesEvery, async () => {
  const data = await api("entities");
  state.entities = data.entities;
  if (!state.view.fitted && state.entities.length) fit();
  showList();
  draw();
});

function filters() {
  return {
    name: $("filter-name").value.trim().toLowerCase(),
    tag: $("filter-tag").value.trim().toLowerCase(),
    script: $("filter-script").value.trim().toLowerCase(),
    state: $("filter-state").value,
  };
}

function matches(e, f) {
  return (!f.name || e.name.toLowerCase().includes(f.name) || e.id.includes(f.name)) &&
    (!f.tag || e.tags.some((t) => t.toLowerCase().includes(f.tag))) &&
    (!f.script || e.scripts.some((s) => s.toLowerCase().includes(f.script))) &&
    (!f.state || e.state === f.state);
}

function showList() {
  const f = filters();
  const shown = state.entities.filter((e) => matches(e, f));
  $("shown-count").textContent = `(${shown.length} of ${state.entities.length})`;
  // Rebuild the list only when what it shows changed, so that a click is
  // never lost to a refresh between its press and its release.
  const key = [$("colour-by").value, state.selected, shown.length,
    ...shown.slice(0, MAX_LIST).map((e) => [e.id, e.name, e.state, e.scripts, e.tags[0]].join("|"))].join("\n");
  if (key === state.listKey) return;
  state.listKey = key;
  const list = $("entity-list");
  const items = [];
  for (const e of shown.slice(0, MAX_LIST)) {
    const li = el("li");
    li.dataset.id = e.id;
    if (e.id === state.selected) li.classList.add("selected");
    const name = el("span", "", e.name || e.id);
    name.prepend(swatch(colourKey(e)));
    li.append(name, el("span", "meta", [e.state === "active" ? "" : e.state, e.scripts.join(" ")].join(" ").trim()));
    items.push(li);
  }
  if (shown.length > MAX_LIST) items.push(el("li", "meta", `… ${shown.length - MAX_LIST} more: filter to see them`));
  list.replaceChildren(...items);
}

function swatch(key) {
  const s = el("span", "swatch");
  s.style.background = colour(key);
  return s;
}

function colourKey(e) {
  return $("colour-by").value === "tag" ? e.tags[0] : e.scripts[0];
}

// The canvas shows x to the right and z downwards (a top-down view).
function toScreen(x, z) {
  const c = $("world"), v = state.view;
  return [c.width / 2 + (x - v.cx) * v.scale, c.height / 2 + (z - v.cz) * v.scale];
}

function toWorld(px, pz) {
  const c = $("world"), v = state.view;
  return [(px - c.width / 2) / v.scale + v.cx, (pz - c.height / 2) / v.scale + v.cz];
}

function fit() {
  const es = state.entities;
  if (!es.length) return;
  let minX = Infinity, maxX = -Infinity, minZ = Infinity, maxZ = -Infinity;
  for (const e of es) {
    const [x, , z] = e.position;
    if (typeof x !== "number" || typeof z !== "number") continue;
    minX = Math.min(minX, x); maxX = Math.max(maxX, x);
    minZ = Math.min(minZ, z); maxZ = Math.max(maxZ, z);
  }
  if (minX === Infinity) return;
  const c = $("world");
  const w = Math.max(maxX - minX, 1), h = Math.max(maxZ - minZ, 1);
  state.view.cx = (minX + maxX) / 2;
  state.view.cz = (minZ + maxZ) / 2;
  state.view.scale = Math.max(0.01, Math.min(c.width / (w * 1.3), c.height / (h * 1.3), 60));
  state.view.fitted = true;
  draw();
}

function resize() {
  for (const c of [$("world"), $("chart")]) {
    const r = c.getBoundingClientRect();
    c.width = Math.max(1, Math.round(r.width * devicePixelRatio));
    c.height = Math.max(1, Math.round(r.height * devicePixelRatio));
  }
  draw();
  drawChart();
}

function draw() {
  const c = $("world"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  drawGrid(g, c);
  // The filters of the list filter the map too.
  const f = filters();
  const es = state.entities.filter((e) => matches(e, f));
  const labels = es.length <= 400;
  const r = Math.max(2, Math.min(6, 3 * devicePixelRatio));
  const keys = new Set();
  g.font = `${11 * devicePixelRatio}px system-ui, sans-serif`;
  // placed are the labels drawn so far: a label that would cover one is
  // left out (the list and a click still name the entity).
  const placed = [];
  const lineHeight = 12 * devicePixelRatio;
  state.drawn = 0;
  for (const e of es) {
    const [x, , z] = e.position;
    if (typeof x !== "number" || typeof z !== "number") continue;
    const [sx, sz] = toScreen(x, z);
    if (sx < -20 || sz < -20 || sx > c.width + 20 || sz > c.height + 20) continue;
    const key = colourKey(e);
    keys.add(key || "");
    g.fillStyle = colour(key);
    g.globalAlpha = e.state === "active" ? 1 : 0.4;
    g.beginPath();
    g.arc(sx, sz, r, 0, 2 * Math.PI);
    g.fill();
    if (e.id === state.selected) {
      g.strokeStyle = "#fff";
      g.lineWidth = 2;
      g.beginPath();
      g.arc(sx, sz, r + 4, 0, 2 * Math.PI);
      g.stroke();
    }
    state.drawn++;
    if (labels && e.name) {
      const box = { x: sx + r + 3, y: sz + 4 - lineHeight * 0.8, w: g.measureText(e.name).width, h: lineHeight };
      if (!placed.some((p) => box.x < p.x + p.w && p.x < box.x + box.w && box.y < p.y + p.h && p.y < box.y + box.h)) {
        placed.push(box);
        g.fillStyle = "#c8ccd6";
        g.fillText(e.name, box.x, sz + 4);
      }
    }
  }
  state.labels = placed;
  g.globalAlpha = 1;
  const legend = [...keys].sort().slice(0, 30).map((k) => {
    const s = el("span", "", k || "(none)");
    s.prepend(swatch(k));
    return s;
  });
  $("legend").replaceChildren(...legend);
}

function drawGrid(g, c) {
  const v = state.view;
  let step = 1;
  while (step * v.scale < 40) step *= 10;
  while (step * v.scale > 400) step /= 10;
  const [x0, z0] = toWorld(0, 0), [x1, z1] = toWorld(c.width, c.height);
  g.strokeStyle = "#1f232b";
  g.lineWidth = 1;
  g.beginPath();
  for (let x = Math.floor(x0 / step) * step; x <= x1; x += step) {
    const [sx] = toScreen(x, 0);
    g.moveTo(sx, 0); g.lineTo(sx, c.height);
  }
  for (let z = Math.floor(z0 / step) * step; z <= z1; z += step) {
    const [, sz] = toScreen(0, z);
    g.moveTo(0, sz); g.lineTo(c.width, sz);
  }
  g.stroke();
  const [ox, oz] = toScreen(0, 0);
  g.strokeStyle = "#3a4150";
  g.beginPath();
  g.moveTo(ox, 0); g.lineTo(ox, c.height);
  g.moveTo(0, oz); g.lineTo(c.width, oz);
  g.stroke();
}

function setupCanvas() {
  const c = $("world");
  let drag = null;
  c.addEventListener("pointerdown", (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, moved: false };
    c.setPointerCapture(ev.pointerId);
  });
  c.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (!drag.moved) return;
    state.view.cx -= dx * devicePixelRatio / state.view.scale;
    state.view.cz -= dy * devicePixelRatio / state.view.scale;
    drag.x = ev.clientX;
    drag.y = ev.clientY;
    draw();
  });
  c.addEventListener("pointerup", (ev) => {
    if (drag && !drag.moved) pick(ev);
    drag = null;
  });
  c.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = c.getBoundingClientRect();
    const px = (ev.clientX - r.left) * devicePixelRatio, pz = (ev.clientY - r.top) * devicePixelRatio;
    const [wx, wz] = toWorld(px, pz);
    state.view.scale = Math.max(0.001, Math.min(5000, state.view.scale * Math.exp(-ev.deltaY / 500)));
    const [nx, nz] = toWorld(px, pz);
    state.view.cx += wx - nx;
    state.view.cz += wz - nz;
    draw();
  }, { passive: false });
}

// pick selects the entity nearest the click, within a few pixels.
function pick(ev) {
  const c = $("world"), r = c.getBoundingClientRect();
  const px = (ev.clientX - r.left) * devicePixelRatio, pz = (ev.clientY - r.top) * devicePixelRatio;
  let best = null, bestD = (10 * devicePixelRatio) ** 2;
  for (const e of state.entities) {
    const [sx, sz] = toScreen(e.position[0], e.position[2]);
    const d = (sx - px) ** 2 + (sz - pz) ** 2;
    if (d < bestD) {
      best = e;
      bestD = d;
    }
  }
  if (best) select(best.id);
}

// window.inspector tells a test, or a designer in the browser's console,
// where an entity is drawn (in the page's CSS pixels).
window.inspector = {
  // drawn is how many entities the map shows, labels the boxes of the
  // names it wrote (canvas pixels), colour a name's colour.
  drawn: () => state.drawn,
  labels: () => state.labels,
  colour,
  screenOf(id) {
    const e = state.entities.find((x) => x.id === id);
    if (!e) return null;
    const r = $("world").getBoundingClientRect();
    const [sx, sz] = toScreen(e.position[0], e.position[2]);
    return { x: r.left + sx / devicePixelRatio, y: r.top + sz / devicePixelRatio };
  },
};

// ---- the selected entity

function select(id) {
  state.selected = id;
  state.detailKey = "";
  showList();
  draw();
  refreshDetail();
}

const refreshDetail = throttled(DETAIL_EVERY, async () => {
  if (!state.selected) return;
  let d;
  try {
    d = await api("entities/" + encodeURIComponent(state.selected));
  } catch (e) {
    $("detail").replaceChildren(el("p", "empty", `${state.selected}: ${e.message}`));
    state.selected = null;
    return;
  }
  updateConsoleTargets(d);
  // Never redraw under a value being edited, nor when nothing changed.
  if ($("detail").contains(document.activeElement) && document.activeElement.tagName === "INPUT") return;
  const key = JSON.stringify(d);
  if (key === state.detailKey) return;
  state.detailKey = key;
  showDetail(d);
});

function showDetail(d) {
  const box = [];
  const kv = el("dl", "kv");
  const row = (k, v) => {
    const dd = el("dd");
    if (v instanceof Node) dd.append(v);
    else dd.textContent = v;
    kv.append(el("dt", "", k), dd);
  };
  row("name", d.name || "(none)");
  row("id", d.id);
  row("state", d.state);
  row("position", d.position.map((n) => fmt(n, 3)).join(", "));
  row("rotation", d.rotation.map((n) => fmt(n, 1)).join(", "));
  row("scale", d.scale.map((n) => fmt(n, 3)).join(", "));
  const tags = el("span");
  for (const t of d.tags) tags.append(el("span", "tag", t));
  if (!d.tags.length) tags.textContent = "(none)";
  row("tags", tags);
  box.push(kv);
  for (const inst of d.instances) box.push(showInstance(d, inst));
  if (!d.instances.length) box.push(el("p", "empty", "No live script instance."));
  $("detail").replaceChildren(...box);
}

function showInstance(d, inst) {
  const div = el("div", "instance" + (inst.faulted ? " faulted" : ""));
  div.dataset.script = inst.script;
  const h = el("h3", "", inst.script);
  if (inst.faulted) h.append(el("span", "badge gone", "faulted"));
  if (inst.faulted && !state.readonly) {
    const b = el("button", "restart", "restart");
    b.title = "clear the fault: onCreate runs again if it failed, else the callbacks run again from the next frame";
    b.addEventListener("click", async () => {
      try {
        await api(`entities/${encodeURIComponent(d.id)}/restart`, { script: inst.script });
      } catch (e) {
        problem(e);
      }
      state.detailKey = "";
      refreshAll();
    });
    h.append(b);
  }
  if (inst.faulted && inst.at && !state.readonly && timeline.available && debug.available) {
    const b = el("button", "rewind-break", `rewind ${REWIND_BACK} and break`);
    b.title = `move the world back to ${REWIND_BACK} frames before the error and pause where this instance's ${inst.at.callback} starts`;
    b.addEventListener("click", () => rewindAndBreak(d.id, inst.script, inst.at));
    h.append(b);
  }
  div.append(h);
  if (inst.error) {
    const where = inst.at ? `in ${inst.at.callback}, frame ${inst.at.frame}:\n` : "";
    div.append(el("div", "fault", where + inst.error));
  }
  if (inst.selfError) div.append(el("div", "fault", inst.selfError));
  if (inst.self && typeof inst.self === "object") {
    const table = el("table", "self");
    for (const key of Object.keys(inst.self).sort()) {
      const tr = el("tr");
      tr.append(el("td", "key", key));
      const td = el("td");
      td.append(valueCell(inst.self[key], key, (v) => api(`entities/${encodeURIComponent(d.id)}/self`, { script: inst.script, key, value: v })));
      tr.append(td);
      table.append(tr);
    }
    div.append(table);
  }
  return div;
}

// valueCell shows a JSON value; unless read-only, a click edits it as
// JSON and save sends it. Text that is not JSON is refused with a message
// (a string is written in quotes): taking it as a string would turn a
// mistyped number or table into one without a word.
function valueCell(value, key, save) {
  const span = el("span", "value", JSON.stringify(value));
  span.dataset.key = key;
  if (state.readonly) return span;
  span.title = "click to edit (JSON; null removes the key)";
  // On the press, not the click: a refresh between press and release
  // would lose a click.
  span.addEventListener("pointerdown", (ev) => {
    if (span.firstChild instanceof HTMLInputElement) return;
    ev.preventDefault();
    const input = el("input");
    input.value = JSON.stringify(value);
    span.replaceChildren(input);
    input.focus();
    input.select();
    let done = false;
    const finish = async (commit) => {
      if (done) return;
      done = true;
      let v = value;
      if (commit) {
        let parsed = true;
        try {
          v = JSON.parse(input.value);
        } catch {
          parsed = false;
          v = value;
          log("error", `edit of ${key} refused`, `${input.value} is not JSON, so nothing changed (write a string in quotes: "${input.value}")`);
        }
        if (parsed) {
          try {
            await save(v);
          } catch (e) {
            v = value;
            problem(e);
          }
        }
      }
      span.textContent = JSON.stringify(v);
      state.detailKey = "";
      refreshAll();
    };
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") finish(true);
      if (ev.key === "Escape") finish(false);
    });
    input.addEventListener("blur", () => finish(false));
  });
  return span;
}

// ---- blackboard

const refreshBlackboard = throttled(BLACKBOARD_EVERY, async () => {
  const data = await api("blackboard");
  if ($("blackboard").contains(document.activeElement)) return;
  const rows = Object.keys(data.blackboard).sort().map((key) => {
    const tr = el("tr");
    const td = el("td");
    td.append(valueCell(data.blackboard[key], key, (v) => api("blackboard", { key, value: v })));
    tr.append(el("td", "key", key), td);
    return tr;
  });
  $("blackboard").replaceChildren(...rows);
});

// ---- frame-time chart

function record(f) {
  const now = performance.now();
  state.history.push({ t: now, total: f.frameMs, scripts: f.scriptMs || {} });
  while (state.history.length && state.history[0].t < now - CHART_SECONDS * 1000) state.history.shift();
  drawChart();
}

function drawChart() {
  const c = $("chart"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  const hs = state.history;
  if (hs.length < 2) return;
  const now = hs[hs.length - 1].t;
  const names = new Set();
  let top = 0.05;
  for (const h of hs) {
    top = Math.max(top, h.total);
    for (const [k, v] of Object.entries(h.scripts)) {
      names.add(k);
      top = Math.max(top, v);
    }
  }
  top *= 1.15;
  const x = (t) => c.width - (now - t) / (CHART_SECONDS * 1000) * c.width;
  const y = (v) => c.height - (v / top) * (c.height - 14 * devicePixelRatio);
  const line = (get, style, dash) => {
    g.strokeStyle = style;
    g.setLineDash(dash);
    g.lineWidth = 1.5 * devicePixelRatio;
    g.beginPath();
    hs.forEach((h, i) => (i ? g.lineTo : g.moveTo).call(g, x(h.t), y(get(h) || 0)));
    g.stroke();
  };
  line((h) => h.total, "#8a90a0", [4, 3]);
  const sorted = [...names].sort();
  for (const n of sorted) line((h) => h.scripts[n], colour(n), []);
  g.setLineDash([]);
  g.fillStyle = "#8a90a0";
  g.font = `${10 * devicePixelRatio}px system-ui, sans-serif`;
  g.fillText(fmt(top, 3) + " ms", 4, 11 * devicePixelRatio);
  const last = hs[hs.length - 1];
  const legend = [el("span", "", `frame ${fmt(last.total, 3)}`)];
  for (const n of sorted) {
    const s = el("span", "", `${n} ${fmt(last.scripts[n] || 0, 3)}`);
    s.prepend(swatch(n));
    legend.push(s);
  }
  $("chart-legend").replaceChildren(...legend);
}

// ---- errors and reloads

function log(cls, where, text) {
  const li = el("li", cls);
  li.append(el("span", "where", where + "\n"), document.createTextNode(text));
  const ol = $("log");
  ol.prepend(li);
  while (ol.children.length > MAX_LOG) ol.lastChild.remove();
}

// ---- timeline: moving the world back (with --rewind)

// REWIND_BACK is how many frames before an error its one click goes.
const REWIND_BACK = 60;

const timeline = { available: false, first: 0, last: 0, touched: false };

const refreshTimeline = throttled(500, async () => {
  if (!timeline.available) return;
  const t = await api("timeline");
  Object.assign(timeline, { first: t.first, last: t.last });
  const r = $("timeline");
  r.min = t.first;
  r.max = t.last;
  // Never move the slider under the designer's hand.
  if (!timeline.touched && document.activeElement !== r) r.value = t.frame;
  $("timeline-frame").textContent = r.value;
});

async function rewindTo(body) {
  try {
    showWorld(await api("rewind", body));
  } catch (e) {
    log("error", "rewind", e.message);
  }
  timeline.touched = false;
  refreshTimeline();
  refreshAll();
  refreshDebug();
}

async function rewindAndBreak(entity, script, at) {
  await rewindTo({ frame: Math.max(timeline.first, at.frame - REWIND_BACK), break: { entity, script, callback: at.callback } });
  await control("resume");
}

// ---- debugger: the same one an editor may attach to over DAP

const debug = { available: false, script: "", path: "", breakpoints: [], stop: null, frame: 0 };

const baseName = (path) => path.split(/[\\/]/).pop();

async function loadDebugScripts() {
  if (!debug.available) return;
  const names = (await api("scripts")).scripts.map((x) => x.script).sort();
  const sel = $("debug-script");
  if (names.join() !== [...sel.options].map((o) => o.value).join()) {
    const cur = sel.value;
    sel.replaceChildren(...names.map((n) => {
      const o = el("option", "", n);
      o.value = n;
      return o;
    }));
    if (names.includes(cur)) sel.value = cur;
  }
  if (!debug.script && names.length) await showSource({ script: sel.value });
}

// showSource shows a loaded script's source: {script} or {path}.
async function showSource(q) {
  const src = await api("debug/source?" + new URLSearchParams(q));
  debug.script = src.script;
  debug.path = src.path;
  $("debug-script").value = src.script;
  const lines = src.source.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  $("source").replaceChildren(...lines.map((text, i) => {
    const li = el("li");
    li.dataset.line = i + 1;
    li.append(el("span", "ln", String(i + 1)), el("code", "", text || " "));
    return li;
  }));
  markSource();
}

// markSource marks the breakpoints and the paused line.
function markSource() {
  const bps = new Set(debug.breakpoints.filter((b) => b.path === debug.path).map((b) => b.line));
  for (const li of $("source").children) {
    const n = Number(li.dataset.line);
    li.classList.toggle("bp", bps.has(n));
    li.classList.toggle("paused", !!debug.stop && debug.stop.path === debug.path && debug.stop.line === n);
  }
  const cur = $("source").querySelector("li.paused");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

async function toggleBreakpoint(line) {
  const lines = new Set(debug.breakpoints.filter((b) => b.path === debug.path).map((b) => b.line));
  if (lines.has(line)) lines.delete(line);
  else lines.add(line);
  showDebug(await api("debug/breakpoints", { path: debug.path, lines: [...lines].sort((a, b) => a - b) }));
}

const refreshDebug = throttled(50, async () => {
  if (debug.available) await showDebug(await api("debug"));
});

async function showDebug(d) {
  const wasAt = debug.stop && `${debug.stop.path}:${debug.stop.line}`;
  debug.breakpoints = d.breakpoints;
  debug.stop = d.paused ? d.stop : null;
  if (!wasAt || !d.paused) debug.frame = 0;
  document.body.dataset.debugPaused = String(d.paused);
  const st = $("debug-state");
  st.textContent = d.paused ? `paused (${d.stop.reason}) at ${baseName(d.stop.path)}:${d.stop.line}${d.stop.error ? ": " + d.stop.error : ""}` : "running";
  st.className = "badge " + (d.paused ? "paused" : "running");
  // The header says the world waits, whichever pause holds it.
  if (d.paused && !state.problem) {
    $("state").textContent = "paused in a script";
    $("state").className = "badge paused";
  } else {
    showWorld(state.world);
  }
  for (const id of ["dbg-continue", "dbg-next", "dbg-in", "dbg-out"]) $(id).disabled = !d.paused;
  $("dbg-pause").disabled = d.paused;
  if (d.paused && d.stop.path !== debug.path) await showSource({ path: d.stop.path });
  markSource();
  $("stack").replaceChildren(...d.stack.map((f, i) => {
    const li = el("li", "", `${f.name}  ${baseName(f.path)}:${f.line}`);
    li.dataset.frame = i;
    return li;
  }));
  if (d.stack.length) await showFrame(Math.min(debug.frame, d.stack.length - 1));
  else $("variables").replaceChildren();
}

// showFrame shows the locals, upvalues and self of frame n of the stack.
async function showFrame(n) {
  debug.frame = n;
  for (const li of $("stack").children) li.classList.toggle("selected", Number(li.dataset.frame) === n);
  let fr;
  try {
    fr = await api("debug/frame?frame=" + n);
  } catch (e) {
    $("variables").replaceChildren(el("p", "empty", e.message));
    return;
  }
  $("variables").replaceChildren(...fr.scopes.map((sc) => {
    const box = el("details");
    box.open = sc.name !== "Upvalues";
    box.dataset.scope = sc.name;
    box.append(el("summary", "", sc.name), varList(sc.variables));
    return box;
  }));
}

// varList lists variables; a table's name opens its fields.
function varList(vars) {
  const ul = el("ul", "vars");
  for (const v of vars) {
    const li = el("li");
    li.dataset.name = v.name;
    const key = el("span", "key", v.name);
    li.append(key, el("span", "value", v.value));
    if (v.ref) {
      li.classList.add("expandable");
      key.addEventListener("click", async () => {
        const open = li.querySelector("ul");
        if (open) {
          open.remove();
          return;
        }
        try {
          li.append(varList((await api("debug/variables?ref=" + v.ref)).variables));
        } catch (e) {
          problem(e);
        }
      });
    }
    ul.append(li);
  }
  return ul;
}

async function debugDo(action) {
  try {
    await showDebug(await api("debug/" + action, {}));
  } catch (e) {
    problem(e);
  }
}

// startDebug shows the debugger panel and the timeline when the world
// has them (the API answers 409 when not) and the page may drive them.
async function startDebug() {
  if (state.readonly) return;
  try {
    await showDebug(await api("debug"));
    debug.available = true;
    $("debug-pane").hidden = false;
    await loadDebugScripts();
  } catch {
    debug.available = false;
  }
  try {
    await api("timeline");
    timeline.available = true;
    $("timeline-box").hidden = false;
    refreshTimeline();
  } catch {
    timeline.available = false;
  }
}

// ---- console

function updateConsoleTargets(d) {
  const sel = $("console-target");
  const want = (d.instances.length > 1 ? [""] : []).concat(d.instances.map((i) => `${d.id}|${i.script}`));
  const have = [...sel.options].map((o) => o.value);
  if (want.join() === have.join()) return;
  const options = d.instances.map((i) => {
    const o = el("option", "", `${i.script} on ${d.name || d.id}`);
    o.value = `${d.id}|${i.script}`;
    return o;
  });
  // An entity with several scripts: the console asks which one.
  if (options.length > 1) {
    const ask = el("option", "", `which script of ${d.name || d.id}? (${options.length})`);
    ask.value = "";
    options.unshift(ask);
  }
  sel.replaceChildren(...options);
  sel.value = options[0] ? options[0].value : "";
}

async function runConsole() {
  const code = $("console-code").value;
  const target = $("console-target").value;
  const out = $("console-out");
  if (!code.trim()) return;
  if (!target) {
    const msg = $("console-target").options.length > 1
      ? "This entity has several scripts: choose the one the snippet runs in.\n"
      : "Select an entity with a script first.\n";
    out.append(el("div", "error", msg));
    return;
  }
  const [entity, script] = target.split("|");
  out.append(el("div", "code", `${script}@${entity}> ${code}\n`));
  try {
    const r = await api("eval", { entity, script, code });
    if (r.output) out.append(el("div", "output", r.output));
    if (r.error) out.append(el("div", "error", r.error + "\n"));
    else out.append(el("div", "result", "= " + (r.result || "(nothing)") + "\n"));
  } catch (e) {
    out.append(el("div", "error", e.message + "\n"));
  }
  out.scrollTop = out.scrollHeight;
  refreshAll();
}

// ---- wiring

function refreshAll() {
  refreshEntities();
  refreshDetail();
  refreshBlackboard();
  refreshTimeline();
}

function connect() {
  const es = new EventSource("api/stream" + (token ? "?token=" + encodeURIComponent(token) : ""));
  es.addEventListener("frame", (ev) => {
    const f = JSON.parse(ev.data);
    showWorld(f);
    record(f);
    refreshAll();
  });
  es.addEventListener("error", (ev) => {
    if (!ev.data) return;
    const e = JSON.parse(ev.data);
    log("error", `frame ${e.frame} ${e.script || ""} ${e.entity || ""} ${e.callback || ""}`.trim(), e.message);
  });
  es.addEventListener("reload", (ev) => {
    const r = JSON.parse(ev.data);
    if (r.error) log("error", `frame ${r.frame} reload of ${r.file} refused`, r.error);
    else log("reload", `frame ${r.frame}`, `reloaded ${r.file}: ${r.instances} instances migrated in ${fmt(r.ms, 1)} ms`);
    if (!r.error && r.script === debug.script) showSource({ script: r.script }).catch(problem);
  });
  es.addEventListener("dropped", (ev) => log("error", "stream", `${ev.data} events dropped`));
  es.addEventListener("debug", () => {
    refreshDebug();
    refreshTimeline();
  });
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) problem(new Error("disconnected"));
  };
}

async function start() {
  $("pause").addEventListener("click", () => control("pause"));
  $("step").addEventListener("click", () => control("step"));
  $("resume").addEventListener("click", () => control("resume"));
  $("fit").addEventListener("click", fit);
  $("colour-by").addEventListener("change", () => {
    showList();
    draw();
  });
  for (const id of ["filter-name", "filter-tag", "filter-script", "filter-state"]) {
    $(id).addEventListener("input", () => {
      showList();
      draw();
    });
  }
  $("entity-list").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-id]");
    if (li) select(li.dataset.id);
  });
  $("bb-add").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let v;
    try {
      v = JSON.parse($("bb-value").value);
    } catch {
      v = $("bb-value").value;
    }
    try {
      await api("blackboard", { key: $("bb-key").value, value: v });
      $("bb-key").value = "";
      $("bb-value").value = "";
    } catch (e) {
      problem(e);
    }
    refreshBlackboard();
  });
  $("debug-script").addEventListener("change", () => showSource({ script: $("debug-script").value }).catch(problem));
  $("source").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-line]");
    if (li) toggleBreakpoint(Number(li.dataset.line)).catch(problem);
  });
  $("stack").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-frame]");
    if (li) showFrame(Number(li.dataset.frame));
  });
  for (const [id, action] of [["dbg-continue", "continue"], ["dbg-next", "next"], ["dbg-in", "stepIn"], ["dbg-out", "stepOut"], ["dbg-pause", "pause"]]) {
    $(id).addEventListener("click", () => debugDo(action));
  }
  $("timeline").addEventListener("input", () => {
    timeline.touched = true;
    $("timeline-frame").textContent = $("timeline").value;
  });
  $("rewind").addEventListener("click", () => rewindTo({ frame: Number($("timeline").value) }));
  $("console-run").addEventListener("click", runConsole);
  $("console-code").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      runConsole();
    }
  });
  setupCanvas();
  addEventListener("resize", resize);
  resize();
  try {
    showWorld(await api("world"));
  } catch (e) {
    problem(e);
  }
  await startDebug();
  refreshAll();
  connect();
}

start();
