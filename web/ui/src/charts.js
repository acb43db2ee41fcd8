// Live charts of the scheduler pool (GET /ws/v1/spindle/pool), drawn with
// uPlot:
//  - placements/s and conflicts/s per scheduler (thin lines) and their sum
//    over the pool (thick line);
//  - scheduling delay p50/p99 per second for the whole pool, from the pool's
//    own 1 s series (so the chart has history as soon as the page loads).
// The data come from PoolHistory (pool_history.js).

import uPlot from 'uplot';
import { h, delayMs, dec } from './format.js';

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1',
  '#ff9da7', '#9c755f', '#bab0ac'];
const POOL_COLOR = '#1d2b3a';

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

const isDecade = (v) => v > 0 && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;
const decades = (u, splits) => splits.map((v) => (isDecade(v) ? v : null));

function baseOptions(yLabel, yDistr = 1) {
  const y = { stroke: '#556', label: yLabel, size: 64, grid: { stroke: '#e6e9ef' } };
  if (yDistr === 3) {
    // On the log scale, labels, ticks and grid lines at powers of ten only.
    Object.assign(y, {
      values: (u, vals) => vals.map((v) => (v == null ? '' : delayMs(v))),
      filter: decades,
      grid: { stroke: '#e6e9ef', filter: decades },
      ticks: { filter: decades },
    });
  }
  return {
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: yDistr === 3 ? { distr: 3 } : { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
    axes: [
      { stroke: '#556', grid: { stroke: '#e6e9ef' }, space: 70, values: (u, vals) => vals.map(clock) },
      y,
    ],
  };
}

// The pool's total is N times a scheduler's rate: it gets its own scale (the
// right axis) so that the per-scheduler lines stay readable.
function rateChart(title, key) {
  const zeroUp = (u, min, max) => [0, Math.max(1, max * 1.1)];
  return new Chart(title,
    h('span', {}, h('b', { class: 'swatch', style: `background:${POOL_COLOR}` }), ' pool total (right axis)   ',
      h('b', { class: 'swatch thin' }), ' one line per scheduler (left axis)'),
    (history) => {
      const options = baseOptions('per scheduler');
      return {
        ...options,
        scales: { ...options.scales, pool: { range: zeroUp } },
        axes: [...options.axes, { side: 1, scale: 'pool', stroke: POOL_COLOR, grid: { show: false },
          label: 'pool', size: 56 }],
        series: [{}, { label: 'pool', scale: 'pool', stroke: POOL_COLOR, width: 2.5, points: { show: false } },
          ...schedulerSeries(history.ids, '/s')],
      };
    },
    (history) => history.rateData(history[key]));
}

export function makeCharts() {
  return [
    rateChart('Allocation rate (placements/s)', 'placements'),
    new Chart('Scheduling delay (ask → commit)',
      h('span', {}, h('b', { class: 'swatch', style: 'background:#4e79a7' }), ' p50   ',
        h('b', { class: 'swatch', style: 'background:#e15759' }), ' p99   per second, whole pool (log scale)'),
      () => ({
        ...baseOptions('delay', 3),
        // Points always: on a quiet cluster most seconds are gaps, and an
        // isolated second has no line to draw.
        series: [{}, { label: 'p50', stroke: '#4e79a7', width: 1.5, points: { show: true, size: 4 } },
          { label: 'p99', stroke: '#e15759', width: 1.5, points: { show: true, size: 4 } }],
      }),
      (history) => history.delayData()),
    rateChart('Conflicts (refused claims/s)', 'conflicts'),
  ];
}
