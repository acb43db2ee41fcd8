#!/usr/bin/env python3
"""A small YARN ResourceManager REST client, written from Hadoop's documented
API (ResourceManagerRest.md) and nothing else: it is the proof that a client
written against Apache YARN works unchanged against Spindle.

Standard library only (urllib, json). Every command prints a table for humans,
or with --json the response body as the RM sent it. Errors from the RM (a
RemoteException document) print "<exception>: <message>" on stderr and exit
with EXIT_REMOTE; an unreachable RM exits with EXIT_UNREACHABLE.

  yarn_rest.py --rm 127.0.0.1:8088 apps --states RUNNING,ACCEPTED
  yarn_rest.py --rm 127.0.0.1:8088 submit --name demo --command 'sleep 30'
  yarn_rest.py --rm 127.0.0.1:8088 kill application_1_0001 --wait 30

The user is sent as Hadoop's simple authentication does: the `user.name`
query parameter (global --user, or the command's --user).
"""

import argparse
import json
import os
import signal
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

EXIT_REMOTE = 1  # the RM answered with an error (RemoteException)
EXIT_USAGE = 2  # argparse's own code for bad arguments
EXIT_UNREACHABLE = 3  # no HTTP answer at all
EXIT_NOT_KILLED = 4  # kill: the app ended in another final state, or --wait ran out

FINAL_STATES = ("FINISHED", "FAILED", "KILLED")


class RemoteError(Exception):
    """An HTTP error status from the RM, with its RemoteException if any."""

    def __init__(self, status, exception, message, java_class, body):
        super().__init__(f"{exception}: {message}")
        self.status = status
        self.exception = exception
        self.message = message
        self.java_class = java_class
        self.body = body


class Unreachable(Exception):
    pass


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers  # list of (name, value) as received
        self.body = body  # str

    def header(self, name):
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def json(self):
        return json.loads(self.body) if self.body.strip() else None


def parse_remote_exception(status, body):
    """The documented error shape: {"RemoteException":{"exception","message","javaClassName"}}."""
    exception, message, java_class = f"HTTP {status}", body.strip()[:200], None
    try:
        doc = json.loads(body)
        remote = doc.get("RemoteException") if isinstance(doc, dict) else None
        if isinstance(remote, dict):
            exception = remote.get("exception", exception)
            message = remote.get("message", "")
            java_class = remote.get("javaClassName")
    except ValueError:
        pass
    return RemoteError(status, exception, message, java_class, body)


class Client:
    """GETs, POSTs and PUTs JSON under http://<rm>/ws/v1/cluster."""

    def __init__(self, rm, user=None, timeout=30.0):
        self.base = rm if rm.startswith("http") else "http://" + rm
        self.user = user
        self.timeout = timeout

    def url(self, path, query=None, user=None):
        params = [(k, v) for k, v in (query or {}).items() if v is not None]
        user = user or self.user
        if user:
            params.append(("user.name", user))
        qs = ("?" + urllib.parse.urlencode(params)) if params else ""
        return f"{self.base}/ws/v1/cluster{path}{qs}"

    def call(self, method, path, query=None, body=None, user=None, raise_errors=True):
        data = None
        headers = {"Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url(path, query, user), data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return Response(resp.status, resp.getheaders(), resp.read().decode("utf-8", "replace"))
        except urllib.error.HTTPError as err:
            text = err.read().decode("utf-8", "replace")
            if raise_errors:
                raise parse_remote_exception(err.code, text) from None
            return Response(err.code, list(err.headers.items()), text)
        except (urllib.error.URLError, OSError) as err:
            raise Unreachable(f"cannot reach the ResourceManager at {self.base}: {err}") from None

    def get(self, path, query=None):
        return self.call("GET", path, query)


def items(doc, outer, inner):
    """The list under doc[outer][inner], tolerating every shape a JAXB-backed
    RM gives for "none" or "one": {"apps":null}, {"apps":{}}, {"apps":{"app":{...}}}."""
    container = (doc or {}).get(outer)
    if not isinstance(container, dict):
        return []
    value = container.get(inner)
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def fmt(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def table(rows, columns):
    """columns: list of (heading, key or function)."""
    cells = [[h for h, _ in columns]]
    for row in rows:
        cells.append([fmt(f(row) if callable(f) else row.get(f)) for _, f in columns])
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    for r in cells:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def key_values(obj, indent=""):
    width = max((len(k) for k in obj), default=0)
    for key, value in obj.items():
        print(f"{indent}{key.ljust(width)}  {fmt(value)}")


def print_json(resp):
    sys.stdout.write(resp.body if resp.body.endswith("\n") else resp.body + "\n")


# ---- commands -------------------------------------------------------------


def cmd_info(client, args):
    resp = client.get("/info")
    if args.json:
        return print_json(resp)
    key_values(resp.json().get("clusterInfo") or {})


def cmd_metrics(client, args):
    resp = client.get("/metrics")
    if args.json:
        return print_json(resp)
    key_values(resp.json().get("clusterMetrics") or {})


APP_COLUMNS = [
    ("Id", "id"),
    ("User", "user"),
    ("Name", "name"),
    ("Queue", "queue"),
    ("State", "state"),
    ("FinalStatus", "finalStatus"),
    ("Progress", lambda a: f"{a.get('progress', 0):.0f}%"),
    ("TrackingUrl", "trackingUrl"),
]


def cmd_apps(client, args):
    query = {"states": args.states, "user": args.user_filter, "queue": args.queue, "limit": args.limit}
    resp = client.get("/apps", query)
    if args.json:
        return print_json(resp)
    apps = items(resp.json(), "apps", "app")
    print(f"Total applications: {len(apps)}")
    table(apps, APP_COLUMNS)


def cmd_app(client, args):
    resp = client.get(f"/apps/{quote(args.id)}")
    if args.json:
        return print_json(resp)
    key_values(resp.json().get("app") or {})


def cmd_attempts(client, args):
    resp = client.get(f"/apps/{quote(args.id)}/appattempts")
    if args.json:
        return print_json(resp)
    attempts = items(resp.json(), "appAttempts", "appAttempt")
    table(
        attempts,
        [
            ("Attempt", "id"),
            ("StartTime", "startTime"),
            ("Container", "containerId"),
            ("Node", "nodeId"),
            ("NodeHttp", "nodeHttpAddress"),
            ("Logs", "logsLink"),
        ],
    )


def cmd_nodes(client, args):
    resp = client.get("/nodes", {"states": args.states})
    if args.json:
        return print_json(resp)
    nodes = items(resp.json(), "nodes", "node")
    print(f"Total nodes: {len(nodes)}")
    table(
        nodes,
        [
            ("Id", "id"),
            ("State", "state"),
            ("Rack", "rack"),
            ("HttpAddress", "nodeHTTPAddress"),
            ("Containers", "numContainers"),
            ("UsedMB", "usedMemoryMB"),
            ("AvailMB", "availMemoryMB"),
            ("UsedVCores", "usedVirtualCores"),
            ("AvailVCores", "availableVirtualCores"),
            ("Health", "healthReport"),
        ],
    )


def cmd_node(client, args):
    resp = client.get(f"/nodes/{quote(args.id)}")
    if args.json:
        return print_json(resp)
    key_values(resp.json().get("node") or {})


def queue_rows(queue, depth, rows):
    rows.append((depth, queue))
    for child in items(queue, "queues", "queue"):
        queue_rows(child, depth + 1, rows)
    for child in items(queue, "childQueues", "queue"):  # fair scheduler (3.x)
        queue_rows(child, depth + 1, rows)


def cmd_scheduler(client, args):
    resp = client.get("/scheduler")
    if args.json:
        return print_json(resp)
    info = ((resp.json() or {}).get("scheduler") or {}).get("schedulerInfo") or {}
    kind = info.get("type", "?")
    print(f"Scheduler: {kind}")
    if kind == "fifoScheduler":
        key_values({k: v for k, v in info.items() if k != "type"}, "  ")
        return
    root = info.get("rootQueue", info) if kind == "fairScheduler" else info
    rows = []
    queue_rows(root, 0, rows)
    table(
        [dict(q, _depth=d) for d, q in rows],
        [
            ("Queue", lambda q: "  " * q["_depth"] + q.get("queueName", "?")),
            ("State", lambda q: q.get("state", "RUNNING" if q["_depth"] == 0 else "")),
            ("Capacity%", "capacity"),
            ("Used%", "usedCapacity"),
            ("MaxCapacity%", "maxCapacity"),
            ("AbsCapacity%", "absoluteCapacity"),
            ("Apps", "numApplications"),
            ("Containers", "numContainers"),
        ],
    )


def app_state(resp):
    """The documented appstate answer: {"state":"RUNNING"} (no root element)."""
    doc = resp.json()
    if not isinstance(doc, dict) or not isinstance(doc.get("state"), str):
        raise ValueError(f"no \"state\" in the appstate answer {resp.body[:200]!r}")
    return doc["state"]


def cmd_state(client, args):
    resp = client.get(f"/apps/{quote(args.id)}/state")
    if args.json:
        return print_json(resp)
    print(app_state(resp))


def cmd_submit(client, args):
    user = args.cmd_user or client.user
    new_app = client.call("POST", "/apps/new-application", user=user)
    app_id = new_app.json()["application-id"]
    env = []
    for pair in args.env or []:
        key, _, value = pair.partition("=")
        env.append({"key": key, "value": value})
    context = {
        "application-id": app_id,
        "application-name": args.name,
        "queue": args.queue,
        "am-container-spec": {"commands": {"command": args.command}},
        "unmanaged-AM": False,
        "max-app-attempts": args.max_attempts,
        "resource": {"memory": args.memory, "vCores": args.vcores},
        "application-type": args.type,
        "keep-containers-across-application-attempts": False,
    }
    if env:
        context["am-container-spec"]["environment"] = {"entry": env}
    resp = client.call("POST", "/apps", body=context, user=user)
    if args.json:
        print(json.dumps({"application-id": app_id, "status": resp.status, "location": resp.header("Location")}))
        return
    print(app_id)
    print(f"submitted: HTTP {resp.status}, Location: {resp.header('Location')}", file=sys.stderr)


def cmd_kill(client, args):
    user = args.cmd_user or client.user
    path = f"/apps/{quote(args.id)}/state"
    resp = client.call("PUT", path, body={"state": "KILLED"}, user=user)
    state = app_state(resp)
    print(f"kill: HTTP {resp.status}, state {state}", file=sys.stderr)
    deadline = time.monotonic() + args.wait
    while state not in FINAL_STATES and time.monotonic() < deadline:
        time.sleep(0.2)
        state = app_state(client.get(path))
    if args.json:
        print(json.dumps({"application-id": args.id, "state": state}))
    else:
        print(state)
    if state != "KILLED":
        if state in FINAL_STATES:
            print(f"{args.id} had already finished ({state})", file=sys.stderr)
        else:
            print(f"{args.id} is still {state} after {args.wait}s", file=sys.stderr)
        return EXIT_NOT_KILLED


TIMEOUT_COLUMNS = [("Type", "type"), ("Expiry-Time", "expiryTime"), ("Remaining-Seconds", "remainingTimeInSeconds")]


def cmd_timeouts(client, args):
    """The documented timeouts answer: {"timeouts":{"timeout":[{...}]}}."""
    resp = client.get(f"/apps/{quote(args.id)}/timeouts")
    if args.json:
        return print_json(resp)
    table(items(resp.json(), "timeouts", "timeout"), TIMEOUT_COLUMNS)


def iso8601(epoch_seconds):
    """Hadoop's Times.formatISO8601 pattern, yyyy-MM-dd'T'HH:mm:ss.SSSZ, in UTC."""
    whole = int(epoch_seconds)
    millis = int((epoch_seconds - whole) * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{millis:03d}+0000"


def cmd_lifetime(client, args):
    user = args.cmd_user or client.user
    body = {"timeout": {"type": "LIFETIME", "expiryTime": iso8601(time.time() + args.seconds)}}
    resp = client.call("PUT", f"/apps/{quote(args.id)}/timeout", body=body, user=user)
    if args.json:
        return print_json(resp)
    timeout = resp.json()["timeout"]
    print(f"{timeout['type']} ends {timeout['expiryTime']} ({timeout['remainingTimeInSeconds']} s left)")


def quote(segment):
    return urllib.parse.quote(segment, safe="")


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rm",
        default=os.environ.get("YARN_RM_WEBAPP", "127.0.0.1:8088"),
        help="the RM's yarn.resourcemanager.webapp.address (default $YARN_RM_WEBAPP or 127.0.0.1:8088)",
    )
    parser.add_argument("--user", help="user.name for every request (Hadoop's simple auth)")
    parser.add_argument("--json", action="store_true", help="print the raw JSON response")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per HTTP request")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("info", help="GET /info").set_defaults(func=cmd_info)
    sub.add_parser("metrics", help="GET /metrics").set_defaults(func=cmd_metrics)
    p = sub.add_parser("apps", help="GET /apps")
    p.add_argument("--states", help="comma-separated YarnApplicationStates")
    p.add_argument("--user", dest="user_filter", help="only this user's apps (the `user` filter)")
    p.add_argument("--queue")
    p.add_argument("--limit", type=int)
    p.set_defaults(func=cmd_apps)
    for name, func, what in (
        ("app", cmd_app, "GET /apps/{id}"),
        ("attempts", cmd_attempts, "GET /apps/{id}/appattempts"),
        ("state", cmd_state, "GET /apps/{id}/state"),
        ("timeouts", cmd_timeouts, "GET /apps/{id}/timeouts"),
        ("node", cmd_node, "GET /nodes/{id}"),
    ):
        p = sub.add_parser(name, help=what)
        p.add_argument("id")
        p.set_defaults(func=func)
    p = sub.add_parser("nodes", help="GET /nodes")
    p.add_argument("--states", help="comma-separated NodeStates")
    p.set_defaults(func=cmd_nodes)
    sub.add_parser("scheduler", help="GET /scheduler (the queue tree)").set_defaults(func=cmd_scheduler)
    p = sub.add_parser("submit", help="POST /apps/new-application, then POST /apps")
    p.add_argument("--name", default="yarn_rest")
    p.add_argument("--queue", default="default")
    p.add_argument("--command", required=True, help="the ApplicationMaster's shell command")
    p.add_argument("--memory", type=int, default=128, help="AM memory in MB")
    p.add_argument("--vcores", type=int, default=1)
    p.add_argument("--max-attempts", type=int, default=1)
    p.add_argument("--type", default="YARN", help="application type")
    p.add_argument("--env", action="append", metavar="KEY=VALUE", help="AM environment (repeatable)")
    p.add_argument("--user", dest="cmd_user", help="submit as this user (user.name)")
    p.set_defaults(func=cmd_submit)
    p = sub.add_parser("kill", help="PUT /apps/{id}/state KILLED, then wait for KILLED")
    p.add_argument("id")
    p.add_argument("--user", dest="cmd_user", help="kill as this user (user.name)")
    p.add_argument("--wait", type=float, default=30.0, help="seconds to wait for KILLED")
    p.set_defaults(func=cmd_kill)
    p = sub.add_parser("lifetime", help="PUT /apps/{id}/timeout: LIFETIME ends SECONDS from now")
    p.add_argument("id")
    p.add_argument("seconds", type=float)
    p.add_argument("--user", dest="cmd_user", help="as this user (user.name)")
    p.set_defaults(func=cmd_lifetime)
    return parser


def main(argv=None):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `yarn_rest.py apps | head` ends quietly
    args = build_parser().parse_args(argv)
    client = Client(args.rm, args.user, args.timeout)
    try:
        return args.func(client, args) or 0
    except RemoteError as err:
        print(f"{err.exception}: {err.message} (HTTP {err.status})", file=sys.stderr)
        return EXIT_REMOTE
    except Unreachable as err:
        print(str(err), file=sys.stderr)
        return EXIT_UNREACHABLE
    except (ValueError, KeyError, AttributeError) as err:
        print(f"unexpected response from the RM: {err!r}", file=sys.stderr)
        return EXIT_REMOTE


if __name__ == "__main__":
    sys.exit(main())
