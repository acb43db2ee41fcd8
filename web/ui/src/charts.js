// Live charts of the scheduler pool (GET /ws/v1/spindle/pool), drawn with
// uPlot:
//  - placements/s and conflicts/s per scheduler: rates the browser computes
//    from the deltas of each scheduler's cumulative counters between polls
//    (thin lines), and their sum over the pool (thick line);
//  - scheduling delay p50/p99 per second for the whole pool, from the pool's
//    own 1 s series (so the chart has history as soon as the page loads).
// One PoolHistory lives for the whole page so that switching views keeps it.

import uPlot from 'uplot';
import { h, delayMs, dec } from './format.js';

const MAX_POINTS = 180; // 6 minutes at one poll per 2 s
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1',
  '#ff9da7', '#9c755f', '#bab0ac'];
const POOL_COLOR = '#1d2b3a';

export class PoolHistory {
  constructor() {
    this.times = [];
    this.ids = []; // scheduler ids, in the order of the series
    this.placements = new Map(); // id -> rates
    this.conflicts = new Map();
    this.previous = null;
    this.latest = null;
  }

  // Adds one poll of the pool endpoint taken at browser time `t` (seconds).
  add(doc, t) {
    const pool = doc && doc.pool;
    if (!pool || !Array.isArray(pool.schedulers)) return;
    this.latest = { pool, t };
    const ids = pool.schedulers.map((s) => s.id);
    if (ids.join(',') !== this.ids.join(',')) this.reset(ids);
    const prev = this.previous;
    this.previous = { t, counters: new Map(pool.schedulers.map((s) => [s.id, s])) };
    if (!prev || t - prev.t < 0.2) return;
    const dt = t - prev.t;
    this.times.push(t);
    for (const s of pool.schedulers) {
      const before = prev.counters.get(s.id);
      const rate = (key) => {
        if (!before) return null;
        const delta = s[key] - before[key];
        return delta < 0 ? null : delta / dt; // a restarted RM starts again
      };
      this.placements.get(s.id).push(rate('placements'));
      this.conflicts.get(s.id).push(rate('conflicts'));
    }
    if (this.times.length > MAX_POINTS) {
      this.times.shift();
      for (const a of [...this.placements.values(), ...this.conflicts.values()]) a.shift();
    }
  }

  reset(ids) {
    this.ids = ids;
    this.times = [];
    this.placements = new Map(ids.map((id) => [id, []]));
    this.conflicts = new Map(ids.map((id) => [id, []]));
  }

  // [times, pool total, per scheduler...] for uPlot.
  rateData(which) {
    const per = this.ids.map((id) => which.get(id));
    const total = this.times.map((_, i) => {
      let sum = 0;
      let any = false;
      for (const a of per) {
        if (a[i] != null) {
          sum += a[i];
          any = true;
        }
      }
      return any ? sum : null;
    });
    return [this.times.slice(), total, ...per.map((a) => a.slice())];
  }

  // [times, p50, p99] (ms) from the pool's 1 s series, on browser time.
  delayData() {
    if (!this.latest) return [[], [], []];
    const { pool, t } = this.latest;
    const points = Array.isArray(pool.series) ? pool.series.slice(-MAX_POINTS * 2) : [];
    const now = (Number(pool.nowMs) || 0) / 1000;
    const at = (p) => t - (now - (p.second + 1)); // a point covers [second, second + 1)
    const value = (p, key) => (p.placements > 0 && p[key] > 0 ? p[key] : null);
    return [points.map(at), points.map((p) => value(p, 'delayP50Ms')),
      points.map((p) => value(p, 'delayP99Ms'))];
  }
}

function schedulerSeries(ids, unit) {
  return ids.map((id, i) => ({
    label: `scheduler ${id}`,
    stroke: PALETTE[i % PALETTE.length],
    width: 1,
    points: { show: false },
    value: (u, v) => (v == null ? '—' : `${dec(v)} ${unit}`),
  }));
}

// One chart panel: a title, a legend line and a uPlot that follows the
// panel's width. update() takes the PoolHistory.
class Chart {
  constructor(title, note, makeOptions, data) {
    this.makeOptions = makeOptions;
    this.dataOf = data;
    this.plotBox = h('div', { class: 'chart-plot' });
    this.empty = h('div', { class: 'chart-empty' }, 'waiting for samples…');
    this.el = h('section', { class: 'chart panel' },
      h('h3', {}, title), h('div', { class: 'chart-note' }, note), this.plotBox, this.empty);
    this.plot = null;
    this.shape = '';
    this.observer = new ResizeObserver(() => {
      if (this.plot) this.plot.setSize(this.size());
    });
    this.observer.observe(this.el);
  }

  size() {
    return { width: Math.max(200, this.el.clientWidth - 24), height: 200 };
  }

  update(history) {
    const data = this.dataOf(history);
    const shape = `${history.ids.join(',')}|${data.length}`;
    if (!this.plot || shape !== this.shape) {
      if (this.plot) this.plot.destroy();
      this.shape = shape;
      this.plot = new uPlot({ ...this.size(), ...this.makeOptions(history) }, data, this.plotBox);
    } else {
      this.plot.setData(data);
    }
    const points = data[0].length;
    this.empty.hidden = points > 1;
  }

  destroy() {
    this.observer.disconnect();
    if (this.plot) this.plot.destroy();
  }
}

const two = (n) => String(n).padStart(2, '0');
const clock = (t) => {
  const d = new Date(t * 1000);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

const baseOptions = (yLabel, yDistr = 1) => ({
  legend: { show: false },
  cursor: { drag: { x: false, y: false } },
  scales: { x: { time: true }, y: yDistr === 3 ? { distr: 3 } : { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
  axes: [
    { stroke: '#556', grid: { stroke: '#e6e9ef' }, values: (u, vals) => vals.map(clock) },
    { stroke: '#556', grid: { stroke: '#e6e9ef' }, label: yLabel, size: 64,
      values: yDistr === 3 ? (u, vals) => vals.map((v) => delayMs(v)) : undefined },
  ],
});

function rateChart(title, yLabel, key) {
  return new Chart(title,
    h('span', {}, h('b', { class: 'swatch', style: `background:${POOL_COLOR}` }), ' pool total   ',
      h('b', { class: 'swatch thin' }), ' one line per scheduler'),
    (history) => ({
      ...baseOptions(yLabel),
      series: [{}, { label: 'pool', stroke: POOL_COLOR, width: 2.5, points: { show: false } },
        ...schedulerSeries(history.ids, '/s')],
    }),
    (history) => history.rateData(history[key]));
}

export function makeCharts() {
  return [
    rateChart('Allocation rate', 'placements/s', 'placements'),
    new Chart('Scheduling delay (ask → commit)',
      h('span', {}, h('b', { class: 'swatch', style: 'background:#4e79a7' }), ' p50   ',
        h('b', { class: 'swatch', style: 'background:#e15759' }), ' p99   per second, whole pool (log scale)'),
      () => ({
        ...baseOptions('delay', 3),
        series: [{}, { label: 'p50', stroke: '#4e79a7', width: 2, points: { show: false } },
          { label: 'p99', stroke: '#e15759', width: 2, points: { show: false } }],
      }),
      (history) => history.delayData()),
    rateChart('Conflicts', 'conflicts/s', 'conflicts'),
  ];
}
