#!/usr/bin/env python3
"""Captures every documented RM REST response of one scenario, raw, into a
directory, so that two ResourceManagers (Apache YARN and Spindle) can be
compared key path by key path (shapes.py).

The scenario: the read endpoints on an idle cluster; an application whose AM
sleeps (submitted with yarn_rest's calls), read while it holds its AM
container, then killed through PUT /apps/{id}/state (both answers kept); an
application whose AM command finishes successfully (--finish-command), read
once it is FINISHED; and the error answers (unknown app, malformed id, bad
query values, unknown node, kill of an unknown app, an unsupported target
state). For each request NAME it writes NAME.json (the body as received) and
NAME.http (method, URL, status and headers), and index.json.

  capture.py --rm 127.0.0.1:8088 --out /tmp/restpeer/apache --finish-command "..."
"""

import argparse
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yarn_rest  # noqa: E402


class Recorder:
    def __init__(self, client, out):
        self.client = client
        self.out = out
        self.index = {}
        os.makedirs(out, exist_ok=True)

    def call(self, name, method, path, query=None, body=None, user=None):
        url = self.client.url(path, query, user)
        resp = self.client.call(method, path, query, body, user, raise_errors=False)
        with open(os.path.join(self.out, name + ".json"), "w") as f:
            f.write(resp.body)
        with open(os.path.join(self.out, name + ".http"), "w") as f:
            f.write(f"{method} {url}\n")
            if body is not None:
                f.write(f"request body: {json.dumps(body)}\n")
            f.write(f"status: {resp.status}\n")
            for key, value in resp.headers:
                f.write(f"{key}: {value}\n")
        self.index[name] = {
            "method": method,
            "path": path,
            "query": query or {},
            "status": resp.status,
            "content_type": resp.header("Content-Type"),
            "location": resp.header("Location"),
        }
        print(f"{name:32s} {method:4s} {resp.status} {path}", file=sys.stderr)
        return resp

    def save_index(self):
        with open(os.path.join(self.out, "index.json"), "w") as f:
            json.dump(self.index, f, indent=2, sort_keys=True)


def submit(rec, prefix, name, command, memory, user):
    new_app = rec.call(prefix + "_new_application", "POST", "/apps/new-application", user=user)
    app_id = new_app.json()["application-id"]
    context = {
        "application-id": app_id,
        "application-name": name,
        "queue": "default",
        "am-container-spec": {"commands": {"command": command}},
        "unmanaged-AM": False,
        "max-app-attempts": 1,
        "resource": {"memory": memory, "vCores": 1},
        "application-type": "YARN",
        "keep-containers-across-application-attempts": False,
    }
    rec.call(prefix + "_submit", "POST", "/apps", body=context, user=user)
    return app_id


def state_of(doc):
    """The state in a GET .../state answer: Hadoop's {"state":...}, or (to
    capture an RM that keeps the JAXB root) {"appstate":{"state":...}}."""
    doc = doc or {}
    return doc.get("state") or (doc.get("appstate") or {}).get("state")


def wait_for(what, predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise SystemExit(f"timed out waiting for {what}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rm", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--user", default="alice")
    parser.add_argument("--finish-command", default="true", help="an AM command that ends SUCCEEDED")
    parser.add_argument("--finish-memory", type=int, default=128)
    args = parser.parse_args()
    client = yarn_rest.Client(args.rm)
    rec = Recorder(client, args.out)
    get = lambda name, path, query=None: rec.call(name, "GET", path, query)  # noqa: E731

    # The idle cluster.
    wait_for("a RUNNING node", lambda: yarn_rest.items(client.get("/nodes").json(), "nodes", "node"), 60)
    get("cluster", "")
    get("info", "/info")
    get("metrics_idle", "/metrics")
    get("scheduler_idle", "/scheduler")
    get("apps_none", "/apps")
    get("apps_none_states", "/apps", {"states": "RUNNING"})
    nodes = get("nodes", "/nodes")
    node_id = yarn_rest.items(nodes.json(), "nodes", "node")[0]["id"]
    get("nodes_running", "/nodes", {"states": "RUNNING"})
    get("nodes_none", "/nodes", {"states": "LOST"})
    get("node", "/nodes/" + node_id)

    # An application whose AM holds its container.
    sleeper = submit(rec, "sleeper", "sleeper", "sleep 60", 128, args.user)

    def has_am_container():
        attempts = yarn_rest.items(client.get(f"/apps/{sleeper}/appattempts").json(), "appAttempts", "appAttempt")
        return attempts and attempts[0].get("containerId")

    wait_for("the sleeper's AM container", has_am_container, 60)
    time.sleep(1.5)  # one more NM heartbeat, so the node reports the container
    get("apps_one", "/apps")
    get("apps_filtered", "/apps", {"states": "ACCEPTED,RUNNING", "user": args.user, "queue": "default", "limit": 5})
    get("app_running", f"/apps/{sleeper}")
    get("appattempts_running", f"/apps/{sleeper}/appattempts")
    get("appstate_running", f"/apps/{sleeper}/state")
    get("scheduler_busy", "/scheduler")
    get("metrics_busy", "/metrics")
    get("nodes_busy", "/nodes")
    get("node_busy", "/nodes/" + node_id)

    # Kill it: the first PUT is accepted, a PUT once it is KILLED answers 200.
    path = f"/apps/{sleeper}/state"
    rec.call("kill_put_first", "PUT", path, body={"state": "KILLED"}, user=args.user)
    wait_for("KILLED", lambda: state_of(client.get(path).json()) == "KILLED", 60)
    rec.call("kill_put_again", "PUT", path, body={"state": "KILLED"}, user=args.user)
    get("appstate_killed", path)
    get("app_killed", f"/apps/{sleeper}")
    get("appattempts_killed", f"/apps/{sleeper}/appattempts")

    # An application that finishes.
    finisher = submit(rec, "finisher", "finisher", args.finish_command, args.finish_memory, args.user)
    state = wait_for(
        "the finisher to end",
        lambda: (lambda s: s if s in yarn_rest.FINAL_STATES else None)(
            state_of(client.get(f"/apps/{finisher}/state").json())
        ),
        120,
    )
    print(f"finisher ended {state}", file=sys.stderr)
    get("app_finished", f"/apps/{finisher}")
    get("appattempts_finished", f"/apps/{finisher}/appattempts")
    get("apps_all", "/apps")
    get("apps_killed", "/apps", {"states": "KILLED"})
    get("metrics_after", "/metrics")
    rec.call("kill_put_finished", "PUT", f"/apps/{finisher}/state", body={"state": "KILLED"}, user=args.user)

    # Errors.
    cluster_ts = sleeper.split("_")[1]
    unknown = f"application_{cluster_ts}_9999"
    get("err_app_unknown", f"/apps/{unknown}")
    get("err_app_other_cluster", "/apps/application_1_0001")
    get("err_app_malformed", "/apps/bogus")
    get("err_appattempts_unknown", f"/apps/{unknown}/appattempts")
    get("err_appstate_unknown", f"/apps/{unknown}/state")
    get("err_apps_bad_states", "/apps", {"states": "BOGUS"})
    get("err_apps_bad_limit", "/apps", {"limit": "abc"})
    get("err_nodes_bad_states", "/nodes", {"states": "BOGUS"})
    get("err_node_unknown", "/nodes/nohost:1")
    get("err_unknown_path", "/nope")
    rec.call("err_kill_unknown", "PUT", f"/apps/{unknown}/state", body={"state": "KILLED"}, user=args.user)
    rec.call("err_put_bad_state", "PUT", f"/apps/{finisher}/state", body={"state": "RUNNING"}, user=args.user)
    rec.call("err_kill_no_user", "PUT", f"/apps/{unknown}/state", body={"state": "KILLED"})
    rec.save_index()
    print(f"captured {len(rec.index)} responses into {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
