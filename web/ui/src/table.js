// A sortable table. Columns: {key, label, value(row) (sort key, default
// row[key]), render(row) (cell content, default the value), cls, numeric}.
// Clicking a header sorts by it; clicking again reverses. The table keeps
// its sort across update(rows) calls, so polling does not reset it.

import { h } from './format.js';

export class SortTable {
  constructor(columns, { sortKey, descending = false, empty = 'Nothing to show', rowKey } = {}) {
    this.columns = columns;
    this.sortKey = sortKey || columns[0].key;
    this.descending = descending;
    this.empty = empty;
    this.rowKey = rowKey;
    this.rows = [];
    this.message = 'Loading…';
    this.tbody = h('tbody');
    this.headers = columns.map((c) => h('th', {
      class: [c.numeric ? 'num' : '', 'sortable'].join(' ').trim(),
      title: `Sort by ${c.label}`,
      tabindex: 0,
      onclick: () => this.sortBy(c.key),
      onkeydown: (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          this.sortBy(c.key);
        }
      },
      dataset: { key: c.key },
    }, c.label, h('span', { class: 'arrow' })));
    this.render();
    this.el = h('div', { class: 'table-wrap' },
      h('table', { class: 'grid' }, h('thead', {}, h('tr', {}, this.headers)), this.tbody));
  }

  sortBy(key) {
    if (this.sortKey === key) this.descending = !this.descending;
    else {
      this.sortKey = key;
      this.descending = !!this.columns.find((c) => c.key === key)?.numeric;
    }
    this.render();
  }

  update(rows) {
    this.rows = rows;
    this.message = null;
    this.render();
  }

  // Shows `message` instead of rows until the next update() (no data yet).
  showMessage(message) {
    if (this.message === null) return; // keep the last good rows
    this.message = message;
    this.render();
  }

  value(column, row) {
    return column.value ? column.value(row) : row[column.key];
  }

  render() {
    const column = this.columns.find((c) => c.key === this.sortKey) || this.columns[0];
    const sign = this.descending ? -1 : 1;
    const sorted = [...this.rows].sort((a, b) => {
      const x = this.value(column, a);
      const y = this.value(column, b);
      if (x == null && y == null) return 0;
      if (x == null) return 1;
      if (y == null) return -1;
      if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
      return sign * String(x).localeCompare(String(y), 'en', { numeric: true });
    });
    for (const th of this.headers) {
      const active = th.dataset.key === this.sortKey;
      th.classList.toggle('sorted', active);
      th.querySelector('.arrow').textContent = active ? (this.descending ? ' ▼' : ' ▲') : '';
      th.setAttribute('aria-sort', active ? (this.descending ? 'descending' : 'ascending') : 'none');
    }
    const body = sorted.length === 0
      ? [h('tr', {}, h('td', { class: 'empty', colspan: this.columns.length }, this.message || this.empty))]
      : sorted.map((row) => h('tr', this.rowKey ? { dataset: { key: this.rowKey(row) } } : {},
        this.columns.map((c) => {
          const content = c.render ? c.render(row) : this.value(c, row);
          return h('td', { class: [c.numeric ? 'num' : '', c.cls || ''].join(' ').trim() || null },
            content == null || content === '' ? '—' : content);
        })));
    this.tbody.replaceChildren(...body);
  }
}
