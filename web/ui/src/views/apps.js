// /cluster/apps: every application, sortable by any column and filtered by
// state, user, queue and free text (id, name, user, queue, type, tags).

import { list } from '../api.js';
import { h, fill, num, mb, shortTime, duration, badge, pct } from '../format.js';
import { SortTable } from '../table.js';

const STATES = ['NEW', 'NEW_SAVING', 'SUBMITTED', 'ACCEPTED', 'RUNNING', 'FINISHED', 'FAILED', 'KILLED'];

function select(label, options, onchange) {
  const el = h('select', { onchange, 'aria-label': label }, h('option', { value: '' }, `All ${label}`),
    options.map((o) => h('option', { value: o }, o)));
  return el;
}

function setOptions(selectEl, label, values) {
  const current = selectEl.value;
  const wanted = ['', ...values];
  const have = [...selectEl.options].map((o) => o.value);
  if (wanted.join('\n') === have.join('\n')) return;
  fill(selectEl, h('option', { value: '' }, `All ${label}`),
    values.map((v) => h('option', { value: v }, v)));
  selectEl.value = values.includes(current) ? current : '';
}

export const appLink = (id) => h('a', { href: `/cluster/app/${encodeURIComponent(id)}`, 'data-link': true }, id);

export class AppsView {
  // `state`: the state filter to start with ('' for all).
  constructor(state = '') {
    this.needs = ['apps'];
    this.apps = [];
    const refilter = () => this.render();
    this.stateSel = select('states', STATES, refilter);
    if (STATES.includes(state)) this.stateSel.value = state;
    this.userSel = select('users', [], refilter);
    this.queueSel = select('queues', [], refilter);
    this.text = h('input', { type: 'search', placeholder: 'Search id, name, user, queue, type…',
      oninput: refilter, 'aria-label': 'Search applications' });
    this.count = h('span', { class: 'muted count' });
    this.table = new SortTable([
      { key: 'id', label: 'ID', render: (a) => appLink(a.id) },
      { key: 'name', label: 'Name', cls: 'clip' },
      { key: 'user', label: 'User' },
      { key: 'queue', label: 'Queue' },
      { key: 'state', label: 'State', render: (a) => badge(a.state) },
      { key: 'finalStatus', label: 'Final status', render: (a) => badge(a.finalStatus) },
      { key: 'progress', label: 'Progress', numeric: true,
        render: (a) => h('span', { class: 'progress' },
          h('span', { class: 'progress-fill', style: `width:${Math.max(0, Math.min(100, a.progress || 0))}%` }),
          h('span', { class: 'progress-text' }, pct(a.progress))) },
      { key: 'startedTime', label: 'Started', numeric: true, render: (a) => shortTime(a.startedTime) },
      { key: 'finishedTime', label: 'Finished', numeric: true, render: (a) => shortTime(a.finishedTime) },
      { key: 'elapsedTime', label: 'Elapsed', numeric: true, render: (a) => duration(a.elapsedTime) },
      { key: 'runningContainers', label: 'Containers', numeric: true,
        render: (a) => (a.runningContainers < 0 ? '—' : num(a.runningContainers)) },
      { key: 'allocatedMB', label: 'Memory', numeric: true,
        render: (a) => (a.allocatedMB < 0 ? '—' : mb(a.allocatedMB)) },
      { key: 'allocatedVCores', label: 'vCores', numeric: true,
        render: (a) => (a.allocatedVCores < 0 ? '—' : num(a.allocatedVCores)) },
      { key: 'queueUsagePercentage', label: '% queue', numeric: true,
        render: (a) => pct(a.queueUsagePercentage) },
      { key: 'applicationType', label: 'Type' },
      { key: 'priority', label: 'Priority', numeric: true },
    ], { sortKey: 'startedTime', descending: true, empty: 'No applications', rowKey: (a) => a.id });
    this.el = h('div', { class: 'view apps' },
      h('h2', {}, 'Applications'),
      h('div', { class: 'filters' }, this.stateSel, this.userSel, this.queueSel, this.text, this.count),
      h('section', { class: 'panel', id: 'apps-table' }, this.table.el));
  }

  update(state) {
    const doc = state.data.apps;
    if (!doc) {
      if (state.errors.apps) this.table.showMessage('Cannot load the applications: see the error above.');
      return;
    }
    this.apps = list(doc.apps, 'app');
    const distinct = (key) => [...new Set(this.apps.map((a) => a[key]).filter(Boolean))].sort();
    setOptions(this.userSel, 'users', distinct('user'));
    setOptions(this.queueSel, 'queues', distinct('queue'));
    this.render();
  }

  render() {
    const st = this.stateSel.value;
    const user = this.userSel.value;
    const queue = this.queueSel.value;
    const text = this.text.value.trim().toLowerCase();
    const shown = this.apps.filter((a) => (!st || a.state === st) && (!user || a.user === user) &&
      (!queue || a.queue === queue) && (!text ||
        [a.id, a.name, a.user, a.queue, a.applicationType, a.applicationTags]
          .some((v) => v != null && String(v).toLowerCase().includes(text))));
    this.count.textContent = `${num(shown.length)} of ${num(this.apps.length)} applications`;
    this.table.update(shown);
  }

  destroy() {}
}
