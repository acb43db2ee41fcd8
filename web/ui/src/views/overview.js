// /cluster: the cluster's identity, its metrics as cards, the queues and the
// pool's live charts.

import { h, num, mb, time, badge, bar } from '../format.js';
import { QueueTable } from '../queues.js';
import { makeCharts } from '../charts.js';

function card(title, big, sub, extra) {
  return h('div', { class: 'card' }, h('div', { class: 'card-title' }, title),
    h('div', { class: 'card-big' }, big), extra || null, h('div', { class: 'card-sub' }, sub));
}

function kv(pairs) {
  return h('dl', { class: 'kv-inline' }, pairs.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

export class OverviewView {
  constructor() {
    this.needs = ['info', 'metrics', 'scheduler', 'pool'];
    this.infoBox = h('div', { class: 'panel info' }, 'Loading…');
    this.cards = h('div', { class: 'cards', id: 'summary' });
    this.queues = new QueueTable();
    this.charts = makeCharts();
    this.el = h('div', { class: 'view overview' },
      h('h2', {}, 'Cluster overview'), this.infoBox, this.cards,
      h('section', { class: 'panel', id: 'queues' }, h('h3', {}, 'Queues'), this.queues.el),
      h('div', { class: 'charts', id: 'charts' }, this.charts.map((c) => c.el)));
  }

  update(state) {
    const info = state.data.info && state.data.info.clusterInfo;
    if (info) {
      this.infoBox.replaceChildren(kv([
        ['Cluster', String(info.id ?? '—')],
        ['State', badge(info.state)],
        ['HA', badge(info.haState)],
        ['Started', time(info.startedOn)],
        ['Version', info.resourceManagerVersion || '—'],
        ['Hadoop API', info.hadoopVersion || '—'],
        ['State store', info.rmStateStoreName || '—'],
      ]));
    } else if (state.errors.info) {
      this.infoBox.textContent = 'Cluster information unavailable.';
    }
    const m = state.data.metrics && state.data.metrics.clusterMetrics;
    if (m) {
      this.cards.replaceChildren(
        card('Applications', num(m.appsRunning), `running · ${num(m.appsSubmitted)} submitted · ` +
          `${num(m.appsPending)} pending · ${num(m.appsCompleted)} completed · ` +
          `${num(m.appsFailed)} failed · ${num(m.appsKilled)} killed`),
        card('Containers', num(m.containersAllocated), `allocated · ${num(m.containersPending)} pending · ` +
          `${num(m.containersReserved)} reserved`),
        card('Memory', mb(m.allocatedMB), `used of ${mb(m.totalMB)} · ${mb(m.availableMB)} free · ` +
          `${mb(m.pendingMB)} pending`, bar(m.allocatedMB, m.totalMB)),
        card('vCores', num(m.allocatedVirtualCores), `used of ${num(m.totalVirtualCores)} · ` +
          `${num(m.availableVirtualCores)} free · ${num(m.pendingVirtualCores)} pending`,
          bar(m.allocatedVirtualCores, m.totalVirtualCores)),
        card('Nodes', num(m.activeNodes), `active of ${num(m.totalNodes)} · ${num(m.lostNodes)} lost · ` +
          `${num(m.unhealthyNodes)} unhealthy · ${num(m.decommissionedNodes)} decommissioned · ` +
          `${num(m.rebootedNodes)} rebooted · ${num(m.shutdownNodes)} shut down`));
    } else if (state.errors.metrics && this.cards.childElementCount === 0) {
      this.cards.replaceChildren(h('div', { class: 'panel muted' }, 'Cluster metrics unavailable.'));
    }
    if (state.data.scheduler || state.errors.scheduler) this.queues.update(state.data.scheduler);
    for (const c of this.charts) c.update(state.history);
  }

  destroy() {
    for (const c of this.charts) c.destroy();
  }
}
