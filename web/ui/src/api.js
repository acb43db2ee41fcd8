// Fetching the RM's REST endpoints. Every failure becomes an ApiError whose
// message names the endpoint and what went wrong (HTTP status, Hadoop's
// RemoteException, timeout, unreachable), for the error banner.

export class ApiError extends Error {}

export const ENDPOINTS = {
  info: '/ws/v1/cluster/info',
  metrics: '/ws/v1/cluster/metrics',
  scheduler: '/ws/v1/cluster/scheduler',
  apps: '/ws/v1/cluster/apps',
  nodes: '/ws/v1/cluster/nodes',
  pool: '/ws/v1/spindle/pool',
};

export async function getJson(url, timeoutMs = 5000) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      signal: abort.signal,
    });
    if (!response.ok) {
      let detail = `HTTP ${response.status} ${response.statusText}`.trim();
      try {
        const remote = (await response.json()).RemoteException;
        if (remote) detail += ` (${remote.exception}: ${remote.message})`;
      } catch {
        // Not JSON: the status says enough.
      }
      throw new ApiError(`${url}: ${detail}`);
    }
    try {
      return await response.json();
    } catch (e) {
      throw new ApiError(`${url}: not JSON (${e.message})`);
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (e.name === 'AbortError') throw new ApiError(`${url}: no answer in ${timeoutMs / 1000} s`);
    throw new ApiError(`${url}: unreachable (${e.message})`);
  } finally {
    clearTimeout(timer);
  }
}

// Hadoop renders lists as {"apps":{"app":[...]}}, an empty one as {"apps":{}}
// or null, and some clients see a lone element unwrapped: always an array.
export function list(container, key) {
  if (!container || typeof container !== 'object') return [];
  const value = container[key];
  if (value == null) return [];
  return Array.isArray(value) ? value : [value];
}
