#!/usr/bin/env python3
"""The RestClient integration test: yarn_rest.py, a client written from
Hadoop's REST documentation, drives a real Spindle cell (`spindle rm` and one
`spindle nm` on 127.0.0.1, ports picked at run time, as scripts/demo_cell.sh
starts them) through its command line, as a user would:

  nodes      the NM's node is listed RUNNING
  submit     an AM that sleeps; `apps` lists it, `app`, `attempts`, `state`
  lifetime   PUT timeout: the sleeper's LIFETIME ends in an hour; `timeouts`
             shows it (3.x RMs only: 2.x has no timeout endpoints)
  kill       PUT state KILLED, polled to KILLED; `apps --states KILLED` lists it
  submit     an AM command `true` (no AM protocol): FAILED, as on Apache YARN
  submit     a real AM (`spindle shell-am`, one container running `true`):
             FINISHED / SUCCEEDED
  app        an unknown app: NotFoundException, exit 1
  info, metrics, scheduler: answer, and show the cell

  rest_client_test.py /path/to/spindle
  rest_client_test.py --rm HOST:PORT --finish-command CMD
      the same steps against a fresh RM already running (e.g. Apache YARN),
      CMD being an AM command that ends SUCCEEDED (e.g. DistributedShell's)
Exit status 0 iff every step passed and both daemons exited 0 on SIGTERM (so a
sanitizer report at exit fails the test). SPINDLE_KEEP_REST=1 keeps the files.
"""

import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.join(HERE, "yarn_rest.py")


def prop(name, value):
    return f"  <property><name>{name}</name><value>{value}</value></property>\n"


def write_conf(path, props):
    with open(path, "w") as f:
        f.write("<configuration>\n" + "".join(prop(k, v) for k, v in props) + "</configuration>\n")


class Cell:
    def __init__(self, spindle):
        self.spindle = spindle
        self.work = tempfile.mkdtemp(prefix="spindle-rest.")
        self.procs = []

    def start(self):
        w = self.work
        for d in ("rm-conf", "nm-conf", "nm/local", "nm/logs"):
            os.makedirs(os.path.join(w, d))
        write_conf(
            f"{w}/rm-conf/yarn-site.xml",
            [(f"yarn.resourcemanager.{k}", "127.0.0.1:0") for k in ("address", "scheduler.address", "resource-tracker.address", "admin.address", "webapp.address")]
            + [("yarn.scheduler.minimum-allocation-mb", "64"), ("spindle.store.path", f"{w}/rmstore"),
               ("yarn.resourcemanager.recovery.enabled", "true")],
        )
        write_conf(
            f"{w}/rm-conf/capacity-scheduler.xml",
            [("yarn.scheduler.capacity.root.queues", "default"), ("yarn.scheduler.capacity.root.default.capacity", "100")],
        )
        ports_file = f"{w}/rm.ports"
        self.spawn([self.spindle, "rm", "--conf", f"{w}/rm-conf", "--ports-file", ports_file], "rm.log")
        deadline = time.monotonic() + 30
        while not (os.path.exists(ports_file) and os.path.getsize(ports_file) > 0):
            if time.monotonic() > deadline or self.procs[0].poll() is not None:
                raise Failure("spindle rm did not start:\n" + self.log("rm.log"))
            time.sleep(0.1)
        with open(ports_file) as f:
            self.ports = dict(line.strip().split("=", 1) for line in f if "=" in line)
        if "web" not in self.ports:
            raise Failure(f"spindle rm serves no REST API: no web= line in --ports-file ({self.ports})")
        self.web = f"127.0.0.1:{self.ports['web']}"
        self.scheduler = f"127.0.0.1:{self.ports['scheduler']}"
        write_conf(
            f"{w}/nm-conf/yarn-site.xml",
            [
                ("yarn.resourcemanager.resource-tracker.address", f"127.0.0.1:{self.ports['resource-tracker']}"),
                ("yarn.nodemanager.hostname", "127.0.0.1"),
                ("yarn.nodemanager.address", "127.0.0.1:0"),
                ("yarn.nodemanager.webapp.address", "127.0.0.1:0"),
                ("yarn.nodemanager.resource.memory-mb", "2048"),
                ("yarn.nodemanager.resource.cpu-vcores", "4"),
                ("yarn.nodemanager.local-dirs", f"{w}/nm/local"),
                ("yarn.nodemanager.log-dirs", f"{w}/nm/logs"),
            ],
        )
        self.spawn([self.spindle, "nm", "--conf", f"{w}/nm-conf"], "nm.log")
        print(f"cell: REST at http://{self.web}/ws/v1/cluster, files in {w}", flush=True)

    def spawn(self, argv, log):
        with open(os.path.join(self.work, log), "w") as out:
            self.procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT))

    def log(self, name):
        try:
            with open(os.path.join(self.work, name)) as f:
                return "".join(f.readlines()[-30:])
        except OSError:
            return ""

    def stop(self, keep):
        """SIGTERM, then SIGKILL after 20 s; True iff every daemon exited 0
        (a sanitizer report at exit makes it non-zero)."""
        clean = True
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            if p.returncode != 0:
                print(f"{p.args[0]} {p.args[1]} exited {p.returncode}")
                clean = False
        if keep or not clean:
            print(f"cell files: {self.work}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)
        return clean


class External:
    """An RM started by someone else: only its REST address is needed."""

    def __init__(self, web, finish_command):
        self.web = web
        self.finish_command = finish_command

    def start(self):
        print(f"RM: REST at http://{self.web}/ws/v1/cluster", flush=True)

    def log(self, name):
        return ""

    def stop(self, keep):
        return True


class Failure(Exception):
    pass


class Steps:
    def __init__(self, cell):
        self.cell = cell

    def run(self, *args, expect=0):
        """yarn_rest.py --rm <cell> ARGS; returns (stdout, stderr); checks the exit status."""
        argv = [sys.executable, CLIENT, "--rm", self.cell.web, *args]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        shown = " ".join(args)
        if expect is not None and r.returncode != expect:
            raise Failure(f"`yarn_rest.py {shown}` exited {r.returncode}, expected {expect}\n{r.stdout}{r.stderr}")
        return r.stdout, r.stderr

    def json(self, *args):
        return json.loads(self.run("--json", *args)[0])

    def wait(self, what, predicate, seconds=60):
        deadline = time.monotonic() + seconds
        last = None
        while time.monotonic() < deadline:
            last = predicate()
            if last:
                return last
            time.sleep(0.2)
        raise Failure(f"timed out waiting for {what} (last: {last!r})")

    def final_state(self, app_id, seconds=90):
        return self.wait(
            f"{app_id} to end",
            lambda: (lambda s: s if s in ("FINISHED", "FAILED", "KILLED") else None)(self.run("state", app_id)[0].strip()),
            seconds,
        )


def listed(doc, outer, inner):
    container = (doc or {}).get(outer)
    if not isinstance(container, dict):
        return []
    value = container.get(inner) or []
    return value if isinstance(value, list) else [value]


def check(cond, message):
    if not cond:
        raise Failure(message)
    print(f"ok: {message}", flush=True)


def scenario(cell):
    s = Steps(cell)
    # An RM's web server may come up after its RPC ports (Hadoop's does).
    s.wait("the REST API", lambda: subprocess.run([sys.executable, CLIENT, "--rm", cell.web, "info"], capture_output=True).returncode == 0, 60)
    info = s.json("info")["clusterInfo"]
    check(info.get("state") == "STARTED", f"info: the RM is STARTED (id {info.get('id')})")
    node = s.wait("a RUNNING node", lambda: [n for n in listed(s.json("nodes"), "nodes", "node") if n.get("state") == "RUNNING"])[0]
    out, _ = s.run("nodes")
    check(node["id"] in out and "RUNNING" in out, f"nodes: {node['id']} RUNNING in the table")
    check(s.json("node", node["id"])["node"]["id"] == node["id"], "node: the node by its id")
    check(s.json("metrics")["clusterMetrics"].get("activeNodes") == 1, "metrics: one active node")
    out, _ = s.run("scheduler")
    check("root" in out and "default" in out, "scheduler: the queue tree root / default")

    # An application whose AM sleeps: listed, then killed.
    out, _ = s.run("--user", "alice", "submit", "--name", "sleeper", "--command", "sleep 60", "--memory", "128")
    sleeper = out.strip()
    check(sleeper.startswith("application_"), f"submit: {sleeper}")
    out, _ = s.wait(f"{sleeper} in `apps`", lambda: (lambda o: o if sleeper in o[0] else None)(s.run("apps")))
    check("sleeper" in out and "alice" in out, "apps: the sleeper listed with its name and user")
    apps = listed(s.json("apps", "--states", "ACCEPTED,RUNNING", "--user", "alice"), "apps", "app")
    check([a["id"] for a in apps] == [sleeper], "apps --states ACCEPTED,RUNNING --user alice: only the sleeper")
    app = s.json("app", sleeper)["app"]
    check(app["user"] == "alice" and app["queue"] == "default", "app: user alice, queue default")
    attempt = s.wait("the sleeper's AM container", lambda: [a for a in listed(s.json("attempts", sleeper), "appAttempts", "appAttempt") if a.get("containerId")])[0]
    check(attempt["id"] == 1, f"attempts: attempt 1 in {attempt['containerId']}")
    if str(info.get("hadoopVersion", "")).startswith("2."):
        print("skip: timeouts (the 2.x REST API has no timeout endpoints)", flush=True)
    else:
        out, _ = s.run("timeouts", sleeper)
        check("LIFETIME" in out and "UNLIMITED" in out and "-1" in out, "timeouts: LIFETIME UNLIMITED, -1 before any lifetime")
        out, _ = s.run("--user", "alice", "lifetime", sleeper, "3600")
        check(out.startswith("LIFETIME ends "), f"lifetime: {out.strip()}")
        timeout = listed(s.json("timeouts", sleeper), "timeouts", "timeout")[0]
        check(timeout["type"] == "LIFETIME" and 3500 < timeout["remainingTimeInSeconds"] <= 3600,
              f"timeouts: LIFETIME with {timeout['remainingTimeInSeconds']} s left")
    out, err = s.run("--user", "alice", "kill", sleeper, "--wait", "60")
    check(out.strip() == "KILLED", f"kill: KILLED ({err.strip()})")
    check(s.run("state", sleeper)[0].strip() == "KILLED", "state: KILLED")
    app = s.json("app", sleeper)["app"]
    check(app["finalStatus"] == "KILLED", "app: finalStatus KILLED")
    killed = listed(s.json("apps", "--states", "KILLED"), "apps", "app")
    check([a["id"] for a in killed] == [sleeper], "apps --states KILLED: the sleeper")

    # An AM command that exits 0 without the AM protocol fails, as on Apache YARN.
    out, _ = s.run("--user", "alice", "submit", "--name", "true", "--command", "true")
    no_am = out.strip()
    check(s.final_state(no_am) == "FAILED", f"{no_am}: AM command `true` ends FAILED (as on Apache 2.6)")

    # A real AM: `spindle shell-am` running one container of `true`.
    am = getattr(cell, "finish_command", None) or (
        f"{cell.spindle} shell-am --rm-scheduler {cell.scheduler} --num-containers 1 --memory-mb 64 --vcores 1"
        f" --command-base64 {base64.b64encode(b'true').decode()} 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"
    )
    memory = os.environ.get("REST_FINISH_MEMORY", "128")
    out, _ = s.run("--user", "alice", "submit", "--name", "finisher", "--command", am, "--memory", memory)
    finisher = out.strip()
    check(s.final_state(finisher) == "FINISHED", f"{finisher}: a real AM ends FINISHED")
    check(s.json("app", finisher)["app"]["finalStatus"] == "SUCCEEDED", "app: finalStatus SUCCEEDED")
    out, err = s.run("--user", "alice", "kill", finisher, expect=4)
    check(out.strip() == "FINISHED", "kill of a finished app: exit 4, state FINISHED")

    # Errors come back as RemoteExceptions.
    unknown = sleeper.rsplit("_", 1)[0] + "_9999"
    _, err = s.run("app", unknown, expect=1)
    check("NotFoundException" in err, f"app {unknown}: NotFoundException, exit 1")
    _, err = s.run("apps", "--states", "BOGUS", expect=1)
    check("BadRequestException" in err, "apps --states BOGUS: BadRequestException, exit 1")
    m = s.json("metrics")["clusterMetrics"]
    check(m["appsKilled"] == 1 and m["appsCompleted"] >= 1 and m["appsFailed"] == 1, "metrics: 1 killed, 1 failed, completed")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--rm" and sys.argv[3] == "--finish-command":
        cell = External(sys.argv[2], sys.argv[4])
    elif len(sys.argv) == 2:
        cell = Cell(os.path.abspath(sys.argv[1]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    status = 0
    try:
        cell.start()
        scenario(cell)
        print("RestClient: all steps passed")
    except (Failure, subprocess.TimeoutExpired) as err:
        print(f"FAILED: {err}")
        print("--- rm.log\n" + cell.log("rm.log") + "--- nm.log\n" + cell.log("nm.log"))
        status = 1
    finally:
        if not cell.stop(keep=os.environ.get("SPINDLE_KEEP_REST") == "1"):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
