// /cluster/app/<id>: one application and its attempts.

import { list } from '../api.js';
import { h, fill, num, mb, time, duration, badge, pct, safeUrl } from '../format.js';

function kvTable(pairs) {
  return h('table', { class: 'kv' }, h('tbody', {},
    pairs.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v == null || v === '' ? '—' : v)))));
}

export class AppView {
  constructor(id) {
    this.id = id;
    this.needs = [`app:${id}`, `attempts:${id}`];
    this.details = h('section', { class: 'panel' }, 'Loading…');
    this.attempts = h('section', { class: 'panel' });
    this.el = h('div', { class: 'view app' },
      h('p', {}, h('a', { href: '/cluster/apps', 'data-link': true }, '← Applications')),
      h('h2', {}, 'Application ', h('code', {}, id)), this.details, this.attempts);
  }

  update(state) {
    const doc = state.data[`app:${this.id}`];
    const error = state.errors[`app:${this.id}`];
    if (!doc) {
      if (error) fill(this.details, h('p', { class: 'muted' }, error));
      return;
    }
    const a = doc.app || {};
    fill(this.details,
      h('div', { class: 'app-head' }, h('span', { class: 'muted' }, 'State'), badge(a.state),
        h('span', { class: 'muted' }, 'Final status'), badge(a.finalStatus),
        h('span', { class: 'progress big' },
          h('span', { class: 'progress-fill', style: `width:${Math.max(0, Math.min(100, a.progress || 0))}%` }),
          h('span', { class: 'progress-text' }, pct(a.progress)))),
      h('div', { class: 'two-col' },
        kvTable([
          ['Name', a.name], ['User', a.user], ['Queue', a.queue], ['Type', a.applicationType],
          ['Tags', a.applicationTags], ['Priority', a.priority != null ? num(a.priority) : null],
          ['Unmanaged AM', a.unmanagedApplication == null ? null : String(a.unmanagedApplication)],
          ['Tracking', safeUrl(a.trackingUrl) ? h('a', { href: safeUrl(a.trackingUrl) }, a.trackingUI || a.trackingUrl) : a.trackingUI],
        ]),
        kvTable([
          ['Started', time(a.startedTime)], ['Launched', time(a.launchTime)],
          ['Finished', time(a.finishedTime)], ['Elapsed', duration(a.elapsedTime)],
          ['Running containers', a.runningContainers < 0 ? null : num(a.runningContainers)],
          ['Allocated', a.allocatedMB < 0 ? null : `${mb(a.allocatedMB)}, ${num(a.allocatedVCores)} vCores`],
          ['Resource seconds', `${num(a.memorySeconds)} MB·s, ${num(a.vcoreSeconds)} vCore·s`],
          ['AM host', a.amHostHttpAddress],
        ])),
      a.diagnostics ? h('div', {}, h('h3', {}, 'Diagnostics'), h('pre', { class: 'diag' }, a.diagnostics)) : null);
    const attempts = list((state.data[`attempts:${this.id}`] || {}).appAttempts, 'appAttempt');
    fill(this.attempts, h('h3', {}, 'Attempts'),
      h('table', { class: 'grid' },
        h('thead', {}, h('tr', {}, ['Attempt', 'Started', 'Finished', 'AM container', 'Node', 'Logs']
          .map((t) => h('th', {}, t)))),
        h('tbody', {}, attempts.length === 0
          ? h('tr', {}, h('td', { class: 'empty', colspan: 6 }, 'No attempts'))
          : attempts.map((t) => h('tr', {},
            h('td', {}, t.appAttemptId || String(t.id)), h('td', {}, time(t.startTime)),
            h('td', {}, time(t.finishedTime)), h('td', {}, t.containerId || '—'),
            h('td', {}, t.nodeId || '—'),
            h('td', {}, safeUrl(t.logsLink) ? h('a', { href: safeUrl(t.logsLink) }, 'logs') : '—'))))));
  }

  destroy() {}
}
