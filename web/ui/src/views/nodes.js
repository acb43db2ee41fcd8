// /cluster/nodes: the NodeManagers, sortable, filtered by state and text.

import { list } from '../api.js';
import { h, num, mb, shortTime, badge, bar } from '../format.js';
import { SortTable } from '../table.js';

const usage = (used, avail, fmt) => h('div', { class: 'usage' },
  bar(used, used + avail), h('span', {}, `${fmt(used)} / ${fmt(used + avail)}`));

export class NodesView {
  constructor() {
    this.needs = ['nodes'];
    this.nodes = [];
    this.stateSel = h('select', { onchange: () => this.render(), 'aria-label': 'Node state' },
      h('option', { value: '' }, 'All states'),
      ['NEW', 'RUNNING', 'UNHEALTHY', 'DECOMMISSIONING', 'DECOMMISSIONED', 'LOST', 'REBOOTED', 'SHUTDOWN']
        .map((s) => h('option', { value: s }, s)));
    this.text = h('input', { type: 'search', placeholder: 'Search id, rack, health…',
      oninput: () => this.render(), 'aria-label': 'Search nodes' });
    this.count = h('span', { class: 'muted count' });
    this.table = new SortTable([
      { key: 'id', label: 'Node' },
      { key: 'rack', label: 'Rack' },
      { key: 'state', label: 'State', render: (n) => badge(n.state) },
      { key: 'nodeHTTPAddress', label: 'HTTP address' },
      { key: 'lastHealthUpdate', label: 'Health update', numeric: true, render: (n) => shortTime(n.lastHealthUpdate) },
      { key: 'healthReport', label: 'Health report', cls: 'clip' },
      { key: 'numContainers', label: 'Containers', numeric: true, render: (n) => num(n.numContainers) },
      { key: 'usedMemoryMB', label: 'Memory used', numeric: true,
        render: (n) => usage(Number(n.usedMemoryMB) || 0, Number(n.availMemoryMB) || 0, mb) },
      { key: 'usedVirtualCores', label: 'vCores used', numeric: true,
        render: (n) => usage(Number(n.usedVirtualCores) || 0, Number(n.availableVirtualCores) || 0, num) },
      { key: 'version', label: 'Version' },
    ], { sortKey: 'id', empty: 'No nodes', rowKey: (n) => n.id });
    this.el = h('div', { class: 'view nodes' }, h('h2', {}, 'Nodes'),
      h('div', { class: 'filters' }, this.stateSel, this.text, this.count),
      h('section', { class: 'panel', id: 'nodes-table' }, this.table.el));
  }

  update(state) {
    const doc = state.data.nodes;
    if (!doc) {
      if (state.errors.nodes) this.table.showMessage('Cannot load the nodes: see the error above.');
      return;
    }
    this.nodes = list(doc.nodes, 'node');
    this.render();
  }

  render() {
    const st = this.stateSel.value;
    const text = this.text.value.trim().toLowerCase();
    const shown = this.nodes.filter((n) => (!st || n.state === st) && (!text ||
      [n.id, n.rack, n.healthReport, n.nodeHostName].some((v) => v != null && String(v).toLowerCase().includes(text))));
    this.count.textContent = `${num(shown.length)} of ${num(this.nodes.length)} nodes`;
    this.table.update(shown);
  }

  destroy() {}
}
