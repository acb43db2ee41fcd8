// Number, size, time and state formatting, and a tiny DOM builder.

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function num(v) {
  if (v == null || Number.isNaN(Number(v))) return '—';
  return intFormat.format(Number(v));
}

export function dec(v, digits = 1) {
  if (v == null || !Number.isFinite(Number(v))) return '—';
  return Number(v).toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function pct(v) {
  if (v == null || !Number.isFinite(Number(v))) return '—';
  return `${decFormat.format(Number(v))}%`;
}

// Megabytes, as YARN counts memory.
export function mb(v) {
  if (v == null || !Number.isFinite(Number(v))) return '—';
  const n = Number(v);
  if (Math.abs(n) >= 1024 * 1024) return `${decFormat.format(n / (1024 * 1024))} TB`;
  if (Math.abs(n) >= 1024) return `${decFormat.format(n / 1024)} GB`;
  return `${intFormat.format(n)} MB`;
}

export function duration(ms) {
  if (ms == null || !Number.isFinite(Number(ms)) || ms < 0) return '—';
  let s = Math.floor(Number(ms) / 1000);
  if (s < 60) return Number(ms) < 10000 ? `${dec(ms / 1000)} s` : `${s} s`;
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  return `${m}m ${s}s`;
}

// Milliseconds of scheduling delay (sub-millisecond values matter here).
export function delayMs(v) {
  if (v == null || !Number.isFinite(Number(v))) return '—';
  const n = Number(v);
  if (n === 0) return '0';
  if (n < 1) return `${(n * 1000).toFixed(0)} µs`;
  if (n < 10) return `${decFormat.format(n)} ms`;
  if (n < 1000) return `${intFormat.format(n)} ms`;
  return `${decFormat.format(n / 1000)} s`;
}

const pad = (n) => String(n).padStart(2, '0');

// A timestamp in ms since the epoch; 0 or missing is "—" (not finished).
export function time(ms) {
  if (!ms || !Number.isFinite(Number(ms)) || ms <= 0) return '—';
  const d = new Date(Number(ms));
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// The same without the year (tables).
export function shortTime(ms) {
  const t = time(ms);
  return t.length > 5 ? t.slice(5) : t;
}

// `url` if it is an http(s) URL, else null: links from application data
// (tracking URLs, log links) never run script.
export function safeUrl(url) {
  try {
    const u = new URL(String(url), location.href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

// CSS class of a YARN state (application, node, queue or final status).
export function stateClass(state) {
  switch (String(state || '').toUpperCase()) {
    case 'RUNNING':
    case 'ACTIVE':
      return 'st-running';
    case 'FINISHED':
    case 'SUCCEEDED':
      return 'st-ok';
    case 'FAILED':
    case 'LOST':
    case 'UNHEALTHY':
      return 'st-bad';
    case 'KILLED':
    case 'STOPPED':
    case 'DECOMMISSIONED':
    case 'SHUTDOWN':
      return 'st-dead';
    case 'NEW':
    case 'NEW_SAVING':
    case 'SUBMITTED':
    case 'ACCEPTED':
    case 'DECOMMISSIONING':
    case 'REBOOTED':
    case 'DRAINING':
      return 'st-wait';
    default:
      return 'st-none';
  }
}

// h('div', {class: 'x', onclick: f}, 'text', child, [more children]).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

// Replaces the children of `el` as h() adds them (null and false skipped,
// arrays flattened); the DOM's own replaceChildren would turn a null into
// the text "null" and an array into "[object HTMLElement],...".
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

export function badge(state) {
  return h('span', { class: `badge ${stateClass(state)}` }, state || '—');
}

// A usage bar: `used` of `total` (numbers), with an optional guarantee mark.
export function bar(used, total, { mark, max, title } = {}) {
  const share = (v) => (total > 0 ? Math.max(0, Math.min(100, (100 * v) / total)) : 0);
  const over = mark != null && used > mark;
  return h('div', { class: 'bar', title: title || `${pct(share(used))}` },
    max != null ? h('div', { class: 'bar-max', style: `width:${share(max)}%` }) : null,
    h('div', { class: `bar-fill${over ? ' over' : ''}`, style: `width:${share(used)}%` }),
    mark != null ? h('div', { class: 'bar-mark', style: `left:${share(mark)}%` }) : null);
}
