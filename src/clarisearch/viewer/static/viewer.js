// clarisearch trajectory viewer. Every piece of data is put into the page with textContent or
// createTextNode (never parsed as HTML), links only for http(s) URLs: model output and page text are
// untrusted and must show as text.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const FILTERS = { run: "f-run", system: "f-system", k: "f-k", status: "f-status", outcome: "f-outcome",
                    termination: "f-termination", score_min: "f-score-min", score_max: "f-score-max", q: "f-text" };
  const state = { rows: [], sel: null, cmp: null, listRequest: 0, detailRequest: 0 };

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else if (key === "onclick" || key === "onchange") node.addEventListener(key.slice(2), value);
      else if (key === "open") node.open = true;
      else if (/^(id|data-[a-z-]+|title|colspan|value|lang)$/.test(key)) node.setAttribute(key, String(value));
    }
    return append(node, children);
  }
  const text = (v) => (v === null || v === undefined ? "" : String(v));
  const num = (v, d = 1) => (v === null || v === undefined ? "–" : Number(v).toFixed(d));
  const isUnknown = (a) => text(a).trim().toLowerCase() === "unknown";
  const badge = (label, kind) => el("span", { class: "badge " + (kind || "") , text: label });
  const pre = (value, cls) => el("pre", { class: cls || "", text: text(value) });
  const details = (summary, children, open) => el("details", { open: !!open }, el("summary", { text: summary }), children);
  const section = (title, cls, ...children) => el("section", { class: "block " + (cls || "") }, el("h3", { text: title }), children);
  const json = (obj) => pre(JSON.stringify(obj, null, 2), "json");

  function link(url, label) {
    const target = text(url);
    if (!/^https?:\/\//i.test(target)) return el("span", { text: label || target });
    const a = el("a", { text: label || target });
    a.href = target;  // http(s) only: never javascript: or data:
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    return a;
  }
  function kv(pairs) {
    return el("dl", { class: "kv" }, pairs.filter(([, v]) => v !== undefined).map(([k, v]) =>
      [el("dt", { text: k }), el("dd", {}, v instanceof Node ? v : text(v === null ? "–" : v))]));
  }
  function meta(pairs) {
    return el("div", { class: "meta" }, pairs.filter(([, v]) => v !== undefined).map(([k, v]) =>
      el("span", { class: "meta-item" }, el("span", { class: "meta-k", text: k }), el("span", { class: "meta-v", text: v === null ? "–" : text(v) }))));
  }
  function table(headers, rows, cls) {
    return el("table", { class: "grid " + (cls || "") },
      el("thead", {}, el("tr", {}, headers.map((h) => el("th", { text: h })))),
      el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, c instanceof Node ? c : text(c)))))));
  }
  function tokens(usage) {
    let p = 0, c = 0;
    for (const u of Object.values(usage || {})) { p += u.prompt_tokens || 0; c += u.completion_tokens || 0; }
    return `${p} prompt / ${c} completion`;
  }

  async function getJSON(url) {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }

  // ------------------------------------------------------------------ URL hash state
  function readHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    for (const [name, id] of Object.entries(FILTERS)) {
      const wanted = h.get(name) || "";
      $(id).dataset.wanted = wanted;
      $(id).value = wanted;  // a select without that option yet keeps it in data-wanted until facets arrive
    }
    state.sel = h.get("sel_key") ? { run: h.get("sel_run") || "", key: h.get("sel_key") } : null;
    state.cmp = h.get("cmp_key") ? { run: h.get("cmp_run") || "", key: h.get("cmp_key") } : null;
  }
  function writeHash() {
    const h = new URLSearchParams(filterParams());
    if (state.sel) { h.set("sel_run", state.sel.run); h.set("sel_key", state.sel.key); }
    if (state.cmp) { h.set("cmp_run", state.cmp.run); h.set("cmp_key", state.cmp.key); }
    history.replaceState(null, "", "#" + h.toString());
  }
  function filterParams() {
    const p = new URLSearchParams();
    for (const [name, id] of Object.entries(FILTERS)) {
      const value = $(id).value;
      if (value) p.set(name, value);
    }
    return p;
  }

  // ------------------------------------------------------------------ list
  function fillSelect(id, values, labelOf) {
    const select = $(id);
    const current = select.value || select.dataset.wanted || "";
    select.replaceChildren(el("option", { value: "", text: "all" }));
    for (const v of values) {
      const value = typeof v === "object" ? v.id : v;
      select.appendChild(el("option", { value: text(value), text: labelOf ? labelOf(v) : text(value) }));
    }
    select.value = [...select.options].some((o) => o.value === current) ? current : "";
    select.dataset.wanted = "";
  }
  async function loadRuns() {
    const { runs } = await getJSON("/api/runs");
    $("runs").replaceChildren(...runs.map((r) => el("span", { class: "run-chip", title: r.path },
      `${r.label} · ${r.protocol}${r.setting ? " · " + r.setting : ""} · ${r.episodes} episodes`)));
  }
  async function loadEpisodes() {
    const wantedInputs = ["f-score-min", "f-score-max", "f-text"];
    for (const id of wantedInputs) if ($(id).dataset.wanted) { $(id).value = $(id).dataset.wanted; $(id).dataset.wanted = ""; }
    const wanted = filterParams();
    for (const [name, id] of Object.entries(FILTERS)) if (!wanted.get(name) && $(id).dataset.wanted) wanted.set(name, $(id).dataset.wanted);
    const request = ++state.listRequest;
    const data = await getJSON("/api/episodes?" + wanted.toString());
    if (request !== state.listRequest) return;  // a newer filter change is on its way
    state.rows = data.rows;
    fillSelect("f-run", data.facets.run, (r) => r.label);
    for (const name of ["system", "k", "status", "outcome", "termination"]) fillSelect("f-" + name, data.facets[name]);
    $("count").textContent = `${data.matched} of ${data.total} episodes` + (data.rows.length < data.matched ? ` (first ${data.rows.length} shown)` : "");
    renderList();
    writeHash();
  }
  function renderList() {
    const body = $("episode-list");
    body.replaceChildren(...state.rows.map((row) => {
      const tr = el("tr", { "data-run": row.run, "data-key": row.key, title: row.preview || row.error || "",
                            class: state.sel && state.sel.run === row.run && state.sel.key === row.key ? "selected" : "",
                            onclick: () => select({ run: row.run, key: row.key }) },
        el("td", { text: row.run_label }), el("td", { text: row.instance_id }), el("td", { text: row.system }),
        el("td", { text: row.k === null ? "" : row.k }), el("td", { class: "num", text: num(row.score) }),
        el("td", {}, badge(row.outcome, "outcome-" + row.outcome)), el("td", { text: row.termination }));
      return tr;
    }));
  }
  function select(sel) {
    state.sel = sel;
    state.cmp = null;
    renderList();
    writeHash();
    renderDetail();
  }

  // ------------------------------------------------------------------ shared trajectory pieces
  function renderToolCall(call) {
    const args = call.arguments || {};
    const box = el("div", { class: "tool tool-" + call.name });
    if (call.name === "search") {
      const queries = args.queries || args.query || [];
      (Array.isArray(queries) ? queries : [queries]).forEach((q, i) => {
        const hits = (call.hits || [])[i] || [];
        box.appendChild(el("div", { class: "search-query" }, el("b", { text: "search " }), el("span", { class: "query", text: q }),
          el("span", { class: "muted", text: ` · ${hits.length} hits` })));
        if (hits.length) box.appendChild(table(["#", "title", "snippet", "doc", "score"], hits.map((h) =>
          [text(h.rank), link(h.url, h.title || h.url), text(h.snippet), text(h.doc_id), num(h.score, 2)]), "hits"));
      });
    } else if (call.name === "visit") {
      const page = call.page || {};
      box.appendChild(el("div", {}, el("b", { text: "visit " }), (args.urls || []).map((u) => [link(u), " "])));
      if (page.goal || args.goal) box.appendChild(el("div", { class: "muted", text: "goal: " + text(page.goal || args.goal) }));
      for (const p of page.pages || []) {
        box.appendChild(details(`${text(p.title) || text(p.url)} (${text(p.doc_id)})`, [link(p.url), pre(p.content, "page")]));
      }
    } else {
      box.appendChild(el("div", {}, el("b", { text: call.name + " " }), json(args)));
    }
    if (call.error) box.appendChild(el("div", { class: "error", text: "tool error: " + call.error }));
    return box;
  }
  function renderSteps(steps) {
    return (steps || []).map((step, i) => el("div", { class: "step" },
      el("div", { class: "step-head", text: `step ${i + 1}` }),
      step.output ? pre(step.output, "model-output") : null,
      (step.tool_calls || []).map(renderToolCall)));
  }
  function renderEvents(events) {
    return details(`events (${events.length})`, table(["seq", "type", "role", "time", "fields"], events.map((e) => {
      const { seq, type, role, time, episode_key, ...rest } = e;
      return [text(seq), text(type), text(role), time ? new Date(time * 1000).toISOString() : "", JSON.stringify(rest)];
    }), "events"));
  }
  function errorBlock(ep) {
    return ep.status === "error" ? el("div", { class: "error", text: `${text(ep.error_kind)}: ${text(ep.error)}` }) : null;
  }

  // ------------------------------------------------------------------ CTS
  function renderCts(data) {
    const ep = data.episode, inst = data.instance, agent = ep.agent || {};
    const nuggetText = {};
    for (const n of (inst && inst.gold && inst.gold.nuggets) || []) nuggetText[n.id] = n.text;
    const parts = [meta([["run", data.run.label], ["key", ep.key], ["system", data.row.system], ["k", ep.k], ["mode", ep.mode],
      ["clarifier", ep.clarifier || "–"], ["status", ep.status], ["restore_score_100", num(ep.restore_score_100, 2)],
      ["termination", agent.termination], ["LLM calls", ep.llm_calls], ["cache hits", ep.cache_hits],
      ["tokens", tokens(ep.usage)], ["seconds", ep.seconds]]), errorBlock(ep)];
    if (inst) {
      parts.push(section("Instance", "instance", kv([["blurred query (clarifier/agent see)", inst.blurred_query],
        ["intent (user answerer only)", inst.fused_query], ["gold answer", inst.gold ? inst.gold.answer : "–"]])));
    } else {
      parts.push(section("Instance", "instance", data.instance_note ? el("p", { class: "note", text: data.instance_note }) : null,
        kv(Object.entries(data.context || {}).map(([k, v]) => [k.replace("_", " "), v]))));
    }
    if ((ep.questions || []).length || ep.system === "clarify") {
      parts.push(section("Clarification", "clarification",
        ep.clarifier_parse_ok === false ? el("div", { class: "error", text: "clarifier output could not be parsed" }) : null,
        el("ol", { class: "qa" }, (ep.questions || []).map((q, i) => el("li", {},
          el("div", { class: "cq" }, el("b", { text: "Q: " }), el("span", { class: "cq-text", text: q }),
            ((ep.question_types || [])[i] || []).map((t) => badge(t, "qtype"))),
          el("div", { class: "ua " + (isUnknown((ep.answers || [])[i]) ? "unknown" : "known") },
            el("b", { text: "A: " }), el("span", { text: (ep.answers || [])[i] ?? "–" }))))),
        details("clarifier raw output", (ep.clarifier_raw || []).map((r) => pre(r, "raw")))));
    }
    if (ep.rewrite !== null && ep.rewrite !== undefined) {
      parts.push(section("Rewrite", "rewrite", pre(ep.rewrite, "rewrite-text"), details("rewriter raw output", pre(ep.rewriter_raw, "raw"))));
    }
    parts.push(section("Deep search", "trajectory", kv([["query", agent.query], ["searches", agent.searches], ["visits", agent.visits],
      ["agent LLM calls", agent.llm_calls], ["stopped because", agent.termination]]), renderSteps(agent.steps)));
    parts.push(section("Answer", "answer-block", pre(agent.answer, "answer")));
    parts.push(section("Judge: nugget coverage", "judge",
      kv([["restore_score_100", num(ep.restore_score_100, 2)], ["judge", ep.judge_model || "–"],
          ["parse ok", ep.judge_parse_ok ? "yes" : "NO"]]),
      table(["nugget", "weight", "text", "verdict", "reason"], (ep.coverage || []).map((v) =>
        [text(v.nugget_id), text(v.weight), text(nuggetText[v.nugget_id] || ""), badge(v.label, "verdict label-" + v.label), text(v.reason)]),
        "verdicts"),
      details(`judge raw output (${(ep.judge_raw || []).length})`, (ep.judge_raw || []).map((r) => pre(r, "raw judge-raw")))));
    return parts;
  }

  // ------------------------------------------------------------------ Disco
  function renderDisco(data) {
    const ep = data.episode, inst = data.instance;
    const parts = [meta([["run", data.run.label], ["key", ep.key], ["group", data.row.system], ["difficulty", ep.difficulty],
      ["domain", ep.domain], ["status", ep.status], ["termination", ep.termination],
      ["E2E correct", ep.e2e_correct === null ? "unjudged" : ep.e2e_correct ? "yes" : "no"],
      ["checkpoints passed", data.row.checkpoints], ["searches / visits / asks", `${ep.searches} / ${ep.visits} / ${ep.asks}`],
      ["LLM calls", ep.llm_calls], ["tokens", tokens(ep.usage)], ["seconds", ep.seconds]]), errorBlock(ep)];
    if (inst) {
      parts.push(section("Instance", "instance", kv([["question (agent sees)", inst.question], ["final answer (gold)", inst.final_answer]]),
        table(["checkpoint", "type", "ambiguity", "sub-question", "answer", "clue if asked"], (inst.checkpoints || []).map((c) =>
          [text(c.id), text(c.type), text(c.ambiguity_type || ""), text(c.sub_question), text(c.answer), text(c.clue_if_asked)]))));
    } else if (data.instance_note) {
      parts.push(section("Instance", "instance", el("p", { class: "note", text: data.instance_note })));
    }
    parts.push(section("Dialogue", "turns", (ep.turns || []).map((t) => el("div", { class: "turn", "data-outcome": t.outcome },
      el("div", { class: "turn-head" }, el("b", { text: `turn ${t.index + 1}` }), ` · checkpoint ${text(t.checkpoint_id)} · `,
        badge(t.action, "action-" + t.action), " → ", badge(t.outcome || "–", "verdict outcome-" + t.outcome),
        el("span", { class: "muted", text: ` ${t.searches} searches, ${t.visits} visits` })),
      (t.steps || []).length ? details(`tool calls and model output (${t.steps.length} steps)`, renderSteps(t.steps)) : null,
      el("div", { class: "agent-msg " + t.action }, el("b", { text: { ask: "agent asks: ", answer: "agent answers: " }[t.action] || "agent: " }),
        el("span", { class: "agent-text", text: t.text })),
      el("div", { class: "user-msg" }, el("b", { text: "user: " }), el("span", { text: t.user_reply })),
      t.simulator_parse_ok === false ? el("div", { class: "error", text: "simulator output could not be parsed" }) : null,
      details("user simulator raw output", pre(t.simulator_raw, "raw sim-raw"))))));
    parts.push(section("Checkpoint outcomes", "judge", table(
      ["checkpoint", "type", "ambiguity", "reached", "advanced", "first decision", "searches before", "asks", "right asks", "profile"],
      (ep.checkpoints || []).map((c) => [text(c.id), text(c.type), text(c.ambiguity_type || ""), c.reached ? "yes" : "no",
        badge(c.advanced ? "advanced" : "not advanced", "verdict " + (c.advanced ? "label-full" : "label-none")),
        text(c.first_decision || "–"), text(c.searches_before_decision), text(c.asks), text(c.right_asks), text(c.profile || "–")]),
      "verdicts")));
    parts.push(section("Final answer and E2E judge", "answer-block", pre(ep.final_response, "answer"),
      badge(ep.e2e_correct === null ? "unjudged" : ep.e2e_correct ? "correct" : "incorrect",
            "verdict " + (ep.e2e_correct ? "label-full" : "label-none")),
      ep.judge_parse_ok === false ? el("div", { class: "error", text: "judge output could not be parsed" }) : null,
      details("judge raw output", pre(ep.judge_raw, "raw judge-raw"))));
    return parts;
  }

  // ------------------------------------------------------------------ detail + compare
  function renderEpisode(data) {
    const ep = data.episode;
    return el("article", { class: "episode-pane", "data-key": ep.key, "data-run": data.run.id },
      el("h2", {}, text(ep.instance_id), " ", badge(data.row.system, "system"), " ", badge(data.run.label, "run")),
      ep.protocol === "cts" ? renderCts(data) : renderDisco(data),
      section("Records", "records", renderEvents(data.events || []), details("episode JSON", json(ep))));
  }
  async function renderDetail() {
    const detail = $("detail");
    if (!state.sel) { detail.replaceChildren(el("p", { class: "muted", text: "Select an episode on the left." })); return; }
    const request = ++state.detailRequest;
    try {
      const q = (s) => `/api/episode?run=${encodeURIComponent(s.run)}&key=${encodeURIComponent(s.key)}`;
      const a = await getJSON(q(state.sel));
      const b = state.cmp ? await getJSON(q(state.cmp)) : null;
      const others = (await getJSON("/api/instance?id=" + encodeURIComponent(a.episode.instance_id))).rows
        .filter((r) => !(r.run === state.sel.run && r.key === state.sel.key));
      if (request !== state.detailRequest) return;
      const picker = el("select", { id: "compare-select", onchange: (e) => {
        const [run, ...key] = e.target.value.split("\u0001");
        state.cmp = e.target.value ? { run, key: key.join("\u0001") } : null;
        writeHash(); renderDetail();
      } }, el("option", { value: "", text: others.length ? "— none —" : "— no other episode of this instance —" }),
        others.map((r) => el("option", { value: r.run + "\u0001" + r.key,
          text: `${r.run_label} · ${r.system}${r.k ? " k" + r.k : ""} · score ${num(r.score)} · ${r.outcome}` })));
      if (state.cmp) picker.value = state.cmp.run + "\u0001" + state.cmp.key;
      detail.replaceChildren(el("div", { class: "toolbar" }, el("label", {}, "compare side by side with: ", picker)),
        el("div", { class: b ? "panes two" : "panes" }, renderEpisode(a), b ? renderEpisode(b) : null));
    } catch (err) {
      detail.replaceChildren(el("p", { class: "error", text: "could not load episode: " + err.message }));
    }
  }

  function init() {
    readHash();
    for (const id of Object.values(FILTERS)) {
      $(id).addEventListener(id.startsWith("f-score") || id === "f-text" ? "input" : "change", () => loadEpisodes());
    }
    $("f-reset").addEventListener("click", () => {
      for (const id of Object.values(FILTERS)) $(id).value = "";
      loadEpisodes();
    });
    window.addEventListener("hashchange", () => { readHash(); loadEpisodes().then(renderDetail); });
    loadRuns().catch((e) => { $("runs").textContent = "could not load runs: " + e.message; });
    loadEpisodes().then(renderDetail).catch((e) => { $("count").textContent = "could not load episodes: " + e.message; });
  }
  document.addEventListener("DOMContentLoaded", init);
})();
