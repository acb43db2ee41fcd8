// The Spindle RM's web UI: a single-page app over the RM's REST API. Paths:
// /, /cluster (overview), /cluster/apps (and Hadoop's /cluster/apps/<STATE>),
// /cluster/app/<id>, /cluster/nodes, /cluster/scheduler. Every POLL_MS the
// current view's endpoints (and the pool's, so that chart history survives
// a change of view) are fetched; an endpoint that fails raises the error
// banner, the view keeps its last good data, and polling goes on. A hidden
// tab does not poll.

import './main.css';
import { ENDPOINTS, getJson } from './api.js';
import { PoolHistory } from './pool_history.js';
import { h } from './format.js';
import { OverviewView } from './views/overview.js';
import { AppsView } from './views/apps.js';
import { AppView } from './views/app.js';
import { NodesView } from './views/nodes.js';
import { SchedulerView } from './views/scheduler.js';

const POLL_MS = 2000;

const state = { data: {}, errors: {}, okAt: {}, history: new PoolHistory() };
let view = null;
let timer = null;
let polling = false;

class NotFoundView {
  constructor(path) {
    this.needs = [];
    this.el = h('div', { class: 'view' }, h('h2', {}, 'Page not found'),
      h('p', {}, 'Nothing here: ', h('code', {}, path), '. ',
        h('a', { href: '/cluster', 'data-link': true }, 'Back to the overview.')));
  }
  update() {}
  destroy() {}
}

function viewFor(path) {
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'cluster')) return ['overview', new OverviewView()];
  if (parts[0] === 'cluster' && parts.length === 2) {
    if (parts[1] === 'apps') return ['apps', new AppsView()];
    if (parts[1] === 'nodes') return ['nodes', new NodesView()];
    if (parts[1] === 'scheduler') return ['scheduler', new SchedulerView()];
  }
  // Hadoop's /cluster/apps/RUNNING and the like: the table filtered so.
  if (parts[0] === 'cluster' && parts[1] === 'apps' && parts.length === 3) {
    return ['apps', new AppsView(parts[2].toUpperCase())];
  }
  if (parts[0] === 'cluster' && parts[1] === 'app' && parts.length === 3) {
    return ['apps', new AppView(decodeURIComponent(parts[2]))];
  }
  return ['', new NotFoundView(path)];
}

function urlOf(key) {
  if (key === 'pool') return ENDPOINTS.pool + state.history.query();
  if (ENDPOINTS[key]) return ENDPOINTS[key];
  const [kind, id] = key.split(':');
  const base = `/ws/v1/cluster/apps/${encodeURIComponent(id)}`;
  return kind === 'attempts' ? `${base}/appattempts` : base;
}

function showBanner() {
  const banner = document.getElementById('banner');
  const failed = Object.entries(state.errors).filter(([, e]) => e);
  if (failed.length === 0) {
    banner.hidden = true;
    return;
  }
  const age = (key) => (state.okAt[key]
    ? ` (last good answer ${Math.round((Date.now() - state.okAt[key]) / 1000)} s ago)`
    : ' (no answer yet)');
  banner.replaceChildren(
    h('strong', {}, failed.length === 1 ? 'An endpoint is failing' : `${failed.length} endpoints are failing`),
    h('ul', {}, failed.map(([key, e]) => h('li', {}, e + (key === 'render' ? '' : age(key))))),
    h('span', {}, `Retrying every ${POLL_MS / 1000} s; the page shows the last data it had.`));
  banner.hidden = false;
}

async function poll() {
  if (polling) return;
  polling = true;
  const current = view;
  const keys = [...new Set([...current.needs, 'pool'])];
  const results = await Promise.allSettled(keys.map((k) => getJson(urlOf(k))));
  const now = Date.now();
  results.forEach((r, i) => {
    const key = keys[i];
    if (r.status === 'fulfilled') {
      state.data[key] = r.value;
      state.errors[key] = null;
      state.okAt[key] = now;
      if (key === 'pool') state.history.add(r.value, now / 1000);
    } else {
      state.errors[key] = r.reason.message;
    }
  });
  polling = false;
  const status = document.getElementById('status');
  const ok = results.every((r) => r.status === 'fulfilled');
  const none = results.every((r) => r.status !== 'fulfilled');
  const word = ok ? 'updated' : none ? 'no answer' : 'partly updated';
  status.textContent = `${word} ${new Date(now).toLocaleTimeString('en-GB')}`;
  status.className = `status ${ok ? 'ok' : 'bad'}`;
  if (current === view) {
    try {
      state.errors.render = null;
      view.update(state);
    } catch (e) {
      state.errors.render = `rendering failed: ${e.message}`;
      console.error(e);
    }
  }
  showBanner();
}

// A hidden tab does not poll (no load on the RM for a forgotten tab); it
// polls at once when shown again.
function schedule() {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    if (!document.hidden) await poll();
    schedule();
  }, POLL_MS);
}

document.addEventListener('visibilitychange', () => {
  if (!document.hidden) poll().then(schedule);
});

function route() {
  if (view) view.destroy();
  // Errors of another view's endpoints no longer apply.
  for (const key of Object.keys(state.errors)) if (key !== 'pool') state.errors[key] = null;
  const [nav, next] = viewFor(location.pathname);
  view = next;
  for (const a of document.querySelectorAll('[data-nav]')) a.classList.toggle('active', a.dataset.nav === nav);
  document.getElementById('view').replaceChildren(view.el);
  view.update(state);
  poll().then(schedule);
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  if (a.getAttribute('href') !== location.pathname) history.pushState(null, '', a.getAttribute('href'));
  route();
});
window.addEventListener('popstate', route);
route();
