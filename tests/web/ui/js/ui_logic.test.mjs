// The UI's logic without a browser (node's test runner): list tolerance of
// Hadoop's shapes, formatting, the queue tree, and the pool charts' rates.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { list } from '../../../../web/ui/src/api.js';
import { num, mb, duration, delayMs, pct, time, shortTime, stateClass } from '../../../../web/ui/src/format.js';
import { flattenQueues } from '../../../../web/ui/src/queues.js';
import { PoolHistory, MAX_POINTS } from '../../../../web/ui/src/pool_history.js';

test('list() tolerates empty, null, missing and single-element lists', () => {
  assert.deepEqual(list({ app: [{ id: 1 }, { id: 2 }] }, 'app'), [{ id: 1 }, { id: 2 }]);
  assert.deepEqual(list({}, 'app'), []);
  assert.deepEqual(list(null, 'app'), []);
  assert.deepEqual(list(undefined, 'app'), []);
  assert.deepEqual(list({ app: null }, 'app'), []);
  assert.deepEqual(list({ app: { id: 1 } }, 'app'), [{ id: 1 }]);
  assert.deepEqual(list('junk', 'app'), []);
});

test('numbers, sizes and times are formatted for people', () => {
  assert.equal(num(1234567), '1,234,567');
  assert.equal(num(null), '—');
  assert.equal(mb(512), '512 MB');
  assert.equal(mb(2048), '2 GB');
  assert.equal(mb(1536), '1.5 GB');
  assert.equal(mb(3 * 1024 * 1024), '3 TB');
  assert.equal(duration(2500), '2.5 s');
  assert.equal(duration(75_000), '1m 15s');
  assert.equal(duration(3_725_000), '1h 2m 5s');
  assert.equal(duration(-1), '—');
  assert.equal(delayMs(0.25), '250 µs');
  assert.equal(delayMs(2.54), '2.5 ms');
  assert.equal(delayMs(131.2), '131 ms');
  assert.equal(delayMs(1000), '1 s');
  assert.equal(delayMs(1500), '1.5 s');
  assert.equal(delayMs(25_000), '25 s');
  assert.equal(pct(37.5), '37.5%');
  assert.equal(time(0), '—');
  assert.match(time(Date.UTC(2026, 0, 2, 3, 4, 5)), /^2026-01-0[12] \d\d:\d\d:05$/);
  assert.match(shortTime(Date.UTC(2026, 0, 2, 3, 4, 5)), /^01-0[12] \d\d:\d\d:05$/);
  assert.equal(shortTime(0), '—');
});

test('states get the colour of their meaning', () => {
  assert.equal(stateClass('RUNNING'), 'st-running');
  assert.equal(stateClass('FINISHED'), 'st-ok');
  assert.equal(stateClass('SUCCEEDED'), 'st-ok');
  assert.equal(stateClass('FAILED'), 'st-bad');
  assert.equal(stateClass('UNHEALTHY'), 'st-bad');
  assert.equal(stateClass('KILLED'), 'st-dead');
  assert.equal(stateClass('ACCEPTED'), 'st-wait');
  assert.equal(stateClass('UNDEFINED'), 'st-none');
  assert.equal(stateClass(undefined), 'st-none');
});

test('the capacityScheduler tree flattens parents first, with depths', () => {
  const info = {
    type: 'capacityScheduler', capacity: 100, usedCapacity: 30, maxCapacity: 100, queueName: 'root',
    queues: { queue: [
      { queueName: 'a', absoluteCapacity: 40, queues: {} },
      { queueName: 'b', absoluteCapacity: 60, queues: { queue: { queueName: 'b1', absoluteCapacity: 60 } } },
    ] },
  };
  const rows = flattenQueues(info);
  assert.deepEqual(rows.map((r) => [r.queue.queueName, r.depth, r.leaf]),
    [['root', 0, false], ['a', 1, true], ['b', 1, false], ['b1', 2, true]]);
  assert.equal(rows[0].queue.absoluteUsedCapacity, 30);
  assert.equal(rows[0].queue.absoluteCapacity, 100);
  // A tree with no children at all.
  assert.deepEqual(flattenQueues({ queueName: 'root' }).map((r) => r.leaf), [true]);
});

const poll = (nowMs, counters, series = []) => ({
  pool: {
    nowMs,
    schedulers: counters.map(([placements, conflicts], id) => ({ id, placements, conflicts })),
    series,
  },
});

test('rates come from counter deltas per scheduler; the pool line is their sum', () => {
  const h = new PoolHistory();
  h.add(poll(1000, [[10, 0], [20, 1]]), 100);
  assert.equal(h.times.length, 0); // one poll gives no rate yet
  h.add(poll(3000, [[30, 2], [20, 1]]), 102);
  h.add(poll(5000, [[50, 2], [60, 5]]), 104);
  const [times, total, s0, s1] = h.rateData(h.placements);
  assert.deepEqual(times, [102, 104]);
  assert.deepEqual(s0, [10, 10]);
  assert.deepEqual(s1, [0, 20]);
  assert.deepEqual(total, [10, 30]);
  const [, conflictsTotal, c0, c1] = h.rateData(h.conflicts);
  assert.deepEqual(c0, [1, 0]);
  assert.deepEqual(c1, [0, 2]);
  assert.deepEqual(conflictsTotal, [1, 2]);
});

test('a counter going down (RM restarted) is a gap, not a negative rate', () => {
  const h = new PoolHistory();
  h.add(poll(1000, [[100, 0]]), 10);
  h.add(poll(500, [[4, 0]]), 12);
  h.add(poll(2500, [[8, 0]]), 14);
  const [, total, s0] = h.rateData(h.placements);
  assert.deepEqual(s0, [null, 2]);
  assert.deepEqual(total, [null, 2]);
});

test('a changed set of schedulers starts the history again; it is bounded', () => {
  const h = new PoolHistory();
  h.add(poll(0, [[0, 0]]), 0);
  h.add(poll(2000, [[2, 0]]), 2);
  h.add(poll(4000, [[4, 0], [0, 0]]), 4);
  assert.deepEqual(h.ids, [0, 1]);
  assert.equal(h.times.length, 0);
  for (let i = 1; i <= MAX_POINTS + 10; i++) h.add(poll(4000 + i * 2000, [[4 + i, 0], [i, 0]]), 4 + 2 * i);
  assert.equal(h.times.length, MAX_POINTS);
  assert.equal(h.placements.get(1).length, MAX_POINTS);
  // Polls closer than 0.2 s apart add no point.
  h.add(poll(999_999, [[1e6, 0], [1e6, 0]]), 4 + 2 * (MAX_POINTS + 10) + 0.1);
  assert.equal(h.times.length, MAX_POINTS);
});

test('the delay series lands on the browser clock; idle seconds are gaps', () => {
  const h = new PoolHistory();
  const series = [
    { second: 7, placements: 5, delayP50Ms: 2, delayP99Ms: 9 },
    { second: 8, placements: 0, delayP50Ms: 0, delayP99Ms: 0 },
    { second: 9, placements: 1, delayP50Ms: 3, delayP99Ms: 3 },
  ];
  h.add(poll(10_000, [[0, 0]], series), 1000);
  const [times, p50, p99] = h.delayData();
  // The pool is at 10 s when the browser is at 1000 s; second 9 ends at 10 s.
  assert.deepEqual(times, [998, 999, 1000]);
  assert.deepEqual(p50, [2, null, 3]);
  assert.deepEqual(p99, [9, null, 3]);
  assert.deepEqual(new PoolHistory().delayData(), [[], [], []]);
});

test('a malformed pool document changes nothing', () => {
  const h = new PoolHistory();
  h.add({}, 1);
  h.add({ pool: {} }, 2);
  h.add(null, 3);
  assert.equal(h.latest, null);
  assert.deepEqual(h.rateData(h.placements), [[], []]);
});

test('the series is taken whole once, then its tail, merged; a new RM starts it again', () => {
  const h = new PoolHistory();
  assert.equal(h.query(), '');
  const pt = (second, p50) => ({ second, placements: 1, delayP50Ms: p50, delayP99Ms: p50 });
  h.add(poll(10_000, [[0, 0]], [pt(7, 1), pt(8, 2), pt(9, 3)]), 100);
  assert.match(h.query(), /^\?seconds=\d+$/);
  h.add(poll(12_000, [[0, 0]], [pt(9, 3), pt(10, 4), pt(11, 5)]), 102);
  assert.deepEqual(h.delayData()[1], [1, 2, 3, 4, 5]);
  assert.deepEqual(h.delayData()[0], [97, 98, 99, 100, 101].map((x) => x + 1));
  // The RM restarted: its clock starts again, the old points go.
  h.add(poll(2000, [[0, 0]], [pt(1, 9)]), 104);
  assert.deepEqual(h.delayData()[1], [9]);
});

test('a second missing from the series is a gap in the delay chart', () => {
  const h = new PoolHistory();
  const pt = (second, v) => ({ second, placements: 1, delayP50Ms: v, delayP99Ms: 2 * v });
  h.add(poll(10_000, [[0, 0]], [pt(7, 1), pt(9, 3)]), 50);
  assert.deepEqual(h.delayData(), [[48, 49, 50], [1, null, 3], [2, null, 6]]);
});
