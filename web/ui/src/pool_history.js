// PoolHistory: what the pool charts draw, from successive polls of
// GET /ws/v1/spindle/pool:
//  - placements/s and conflicts/s per scheduler, from the deltas of each
//    scheduler's cumulative counters between two polls (a counter that goes
//    down, as after an RM restart, gives a gap, not a negative rate);
//  - the pool's delay p50/p99 per second, from the pool's own 1 s series,
//    placed on the browser's clock through the pool's "nowMs"; the first
//    poll takes the whole series, later ones its last seconds (query()),
//    merged here.
// One PoolHistory lives for the whole page so that switching views keeps it.
// No DOM: unit-tested under node (tests/web/ui/js).

export const MAX_POINTS = 180; // 6 minutes at one poll per 2 s
export const SERIES_SECONDS = 360; // of the pool's 1 s series
// After the first poll, the page asks only for the series' last seconds.
export const RECENT_SECONDS = 15;

export class PoolHistory {
  constructor() {
    this.times = [];
    this.ids = []; // scheduler ids, in the order of the series
    this.placements = new Map(); // id -> rates
    this.conflicts = new Map();
    this.previous = null;
    this.latest = null;
    this.series = new Map(); // second -> point, merged over polls
  }

  // The query for the next poll: the whole series once, then its tail.
  query() {
    return this.latest ? `?seconds=${RECENT_SECONDS}` : '';
  }

  // Adds one poll of the pool endpoint taken at browser time `t` (seconds).
  add(doc, t) {
    const pool = doc && doc.pool;
    if (!pool || !Array.isArray(pool.schedulers)) return;
    if (this.latest && pool.nowMs < this.latest.pool.nowMs) this.series.clear(); // a new RM
    this.latest = { pool, t };
    if (Array.isArray(pool.series)) {
      for (const p of pool.series) this.series.set(p.second, p);
      const oldest = pool.nowMs / 1000 - SERIES_SECONDS;
      for (const second of this.series.keys()) if (second < oldest) this.series.delete(second);
    }
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
    this.previous = null;
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

  // [times, p50, p99] (ms) from the pool's 1 s series, on browser time; a
  // second with no placement (or none reported) is a gap.
  delayData() {
    if (!this.latest || this.series.size === 0) return [[], [], []];
    const { pool, t } = this.latest;
    const now = (Number(pool.nowMs) || 0) / 1000;
    const seconds = [...this.series.keys()];
    const first = Math.min(...seconds);
    const last = Math.max(...seconds);
    const times = [];
    const p50 = [];
    const p99 = [];
    const value = (p, key) => (p && p.placements > 0 && p[key] > 0 ? p[key] : null);
    for (let second = first; second <= last; second++) {
      const p = this.series.get(second);
      times.push(t - (now - (second + 1))); // a point covers [second, second + 1)
      p50.push(value(p, 'delayP50Ms'));
      p99.push(value(p, 'delayP99Ms'));
    }
    return [times, p50, p99];
  }
}
