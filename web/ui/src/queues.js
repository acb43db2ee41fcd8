// The scheduler's queue tree (GET /ws/v1/cluster/scheduler) as a table with
// usage bars: used share of the cluster vs the queue's guaranteed (mark)
// and maximum (light band) shares.

import { list } from './api.js';
import { h, badge, bar, num, pct, mb } from './format.js';

// Flattens the capacityScheduler tree: [{queue, depth, leaf}], parents first.
export function flattenQueues(info) {
  const rows = [];
  const walk = (queue, depth) => {
    const children = list(queue.queues, 'queue');
    rows.push({ queue, depth, leaf: children.length === 0 });
    for (const child of children) walk(child, depth + 1);
  };
  walk({ ...info, queueName: info.queueName || 'root', absoluteCapacity: 100,
    absoluteMaxCapacity: info.maxCapacity ?? 100,
    absoluteUsedCapacity: info.usedCapacity }, 0);
  return rows;
}

export class QueueTable {
  constructor() {
    this.tbody = h('tbody');
    this.type = h('span', { class: 'muted' });
    this.el = h('div', {},
      h('div', { class: 'panel-sub' }, 'Scheduler: ', this.type),
      h('div', { class: 'table-wrap' }, h('table', { class: 'grid queues' },
        h('thead', {}, h('tr', {},
          h('th', {}, 'Queue'), h('th', {}, 'State'), h('th', { class: 'wide' }, 'Used of cluster'),
          h('th', { class: 'num' }, 'Used'), h('th', { class: 'num' }, 'Guaranteed'),
          h('th', { class: 'num' }, 'Max'), h('th', { class: 'num' }, 'Apps'),
          h('th', { class: 'num' }, 'Containers'), h('th', { class: 'num' }, 'Memory'),
          h('th', { class: 'num' }, 'vCores'))),
        this.tbody)));
  }

  update(doc) {
    const info = doc && doc.scheduler && doc.scheduler.schedulerInfo;
    if (!info) {
      this.type.textContent = 'unknown';
      this.tbody.replaceChildren(h('tr', {}, h('td', { class: 'empty', colspan: 10 }, 'No scheduler information')));
      return;
    }
    this.type.textContent = info.type || 'unknown';
    if (info.type === 'fifoScheduler') {
      this.tbody.replaceChildren(h('tr', {},
        h('td', {}, 'default'), h('td', {}, badge(info.qstate)),
        h('td', {}, bar(info.usedCapacity * 100, 100, { mark: 100 })),
        h('td', { class: 'num' }, pct(info.usedCapacity * 100)), h('td', { class: 'num' }, pct(100)),
        h('td', { class: 'num' }, pct(100)), h('td', { class: 'num' }, '—'),
        h('td', { class: 'num' }, num(info.numContainers)), h('td', { class: 'num' }, '—'),
        h('td', { class: 'num' }, '—')));
      return;
    }
    const rows = flattenQueues(info).map(({ queue: q, depth, leaf }) => {
      const used = Number(q.absoluteUsedCapacity ?? 0);
      const guaranteed = Number(q.absoluteCapacity ?? 0);
      const max = Number(q.absoluteMaxCapacity ?? 100);
      const apps = leaf && q.numActiveApplications != null
        ? `${num(q.numApplications)} (${num(q.numActiveApplications)} active, ${num(q.numPendingApplications)} pending)`
        : num(q.numApplications);
      const res = q.resourcesUsed || {};
      return h('tr', { class: leaf ? 'leaf' : 'parent', dataset: { queue: q.queueName } },
        h('td', { class: 'queue-name', style: `padding-left:${0.6 + depth * 1.2}rem` },
          leaf ? '' : '▾ ', q.queueName),
        h('td', {}, q.state ? badge(q.state) : '—'),
        h('td', {}, bar(used, 100, { mark: guaranteed, max,
          title: `used ${pct(used)} of the cluster; guaranteed ${pct(guaranteed)}, max ${pct(max)}` })),
        h('td', { class: 'num' }, pct(used)),
        h('td', { class: 'num' }, pct(guaranteed)),
        h('td', { class: 'num' }, pct(max)),
        h('td', { class: 'num' }, apps),
        h('td', { class: 'num' }, q.numContainers != null ? num(q.numContainers) : '—'),
        h('td', { class: 'num' }, res.memory != null ? mb(res.memory) : '—'),
        h('td', { class: 'num' }, res.vCores != null ? num(res.vCores) : '—'));
    });
    this.tbody.replaceChildren(...rows);
  }
}
