// /cluster/scheduler: the queue tree, Spindle's scheduler pool (one row per
// scheduler: cumulative counters and delay percentiles, and the rate of
// placements since the previous poll) and the live charts.

import { h, num, dec, delayMs, pct, mb } from '../format.js';
import { QueueTable } from '../queues.js';
import { SortTable } from '../table.js';
import { makeCharts } from '../charts.js';

export class SchedulerView {
  constructor() {
    this.needs = ['scheduler', 'pool'];
    this.queues = new QueueTable();
    this.poolSummary = h('div', { class: 'panel-sub' });
    this.table = new SortTable([
      { key: 'id', label: 'Scheduler', numeric: true, render: (s) => String(s.id) },
      { key: 'strategy', label: 'Strategy' },
      { key: 'rate', label: 'Placements/s', numeric: true, render: (s) => dec(s.rate) },
      { key: 'placements', label: 'Placements', numeric: true, render: (s) => num(s.placements) },
      { key: 'conflicts', label: 'Conflicts', numeric: true, render: (s) => num(s.conflicts) },
      { key: 'conflictsPer1000', label: 'per 1000', numeric: true,
        value: (s) => (s.placements > 0 ? (1000 * s.conflicts) / s.placements : 0),
        render: (s) => dec(s.placements > 0 ? (1000 * s.conflicts) / s.placements : 0) },
      // No placement yet: no delay; no ask with preferences: no quality.
      { key: 'delayP50Ms', label: 'Delay p50', numeric: true,
        render: (s) => (s.delayCount > 0 ? delayMs(s.delayP50Ms) : '—') },
      { key: 'delayP99Ms', label: 'Delay p99', numeric: true,
        render: (s) => (s.delayCount > 0 ? delayMs(s.delayP99Ms) : '—') },
      { key: 'quality', label: 'Quality', numeric: true,
        render: (s) => (s.withPreference > 0 ? pct(100 * s.quality) : '—') },
      { key: 'meanStalenessMs', label: 'Staleness (mean / max)', numeric: true,
        render: (s) => `${delayMs(s.meanStalenessMs)} / ${delayMs(s.maxStalenessMs)}` },
      { key: 'backlog', label: 'Backlog', numeric: true, render: (s) => num(s.backlog) },
    ], { sortKey: 'id', empty: 'No schedulers', rowKey: (s) => String(s.id) });
    this.charts = makeCharts();
    this.el = h('div', { class: 'view scheduler' }, h('h2', {}, 'Scheduler'),
      h('section', { class: 'panel', id: 'queues' }, h('h3', {}, 'Queues'), this.queues.el),
      h('section', { class: 'panel', id: 'pool' }, h('h3', {}, 'Scheduler pool'), this.poolSummary,
        this.table.el),
      h('div', { class: 'charts', id: 'charts' }, this.charts.map((c) => c.el)));
  }

  update(state) {
    if (state.data.scheduler || state.errors.scheduler) this.queues.update(state.data.scheduler);
    const doc = state.data.pool;
    const pool = doc && doc.pool;
    if (pool && Array.isArray(pool.schedulers)) {
      const history = state.history;
      const last = history.times.length - 1;
      const rows = pool.schedulers.map((s) => ({
        ...s,
        rate: last >= 0 && history.placements.get(s.id) ? history.placements.get(s.id)[last] : null,
      }));
      const cap = pool.capacity || {};
      const used = pool.allocated || {};
      const o = pool.overall || {};
      this.poolSummary.textContent = `${pool.mode || 'pool'} · ${num(pool.schedulers.length)} schedulers · ` +
        `${num(o.placements)} placements, ${num(o.conflicts)} conflicts · ` +
        (o.delayCount > 0 ? `delay p50 ${delayMs(o.delayP50Ms)}, p99 ${delayMs(o.delayP99Ms)} · ` : '') + `using ${mb(used.memory)} of ${mb(cap.memory)}, ` +
        `${num(used.vCores)} of ${num(cap.vCores)} vCores (${pct(100 * (pool.utilisation || 0))} dominant share)`;
      this.table.update(rows);
    } else if (state.errors.pool) {
      this.table.showMessage('Cannot load the scheduler pool: see the error above.');
    }
    for (const c of this.charts) c.update(state.history);
  }

  destroy() {
    for (const c of this.charts) c.destroy();
  }
}
