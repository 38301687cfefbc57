"""A distributed job with each role in its own network namespace (needs root
and iproute2): the scheduler in a hub namespace, the server and each worker in
a leaf namespace joined to the hub by a veth pair, the hub forwarding between
leaves. Every node reaches the others only through real (virtual) interfaces,
and each advertises the address of its own interface."""
import os
import secrets
import subprocess
import sys


def _ip(*args, ns=None):
    cmd = (["ip", "netns", "exec", ns] if ns else []) + list(args)
    subprocess.run(cmd, check=True, capture_output=True)


class Namespaces:
    """hub + `leaves` leaf namespaces; leaf i has address 10.213.(i+1).2, the hub 10.213.(i+1).1.
    Setting up raises subprocess.CalledProcessError (with stderr) when the machine refuses."""

    def __init__(self, leaves):
        tag = "%x" % os.getpid()
        self.hub = "wefthub" + tag
        self.leaves = ["weftl%d_%s" % (i, tag) for i in range(leaves)]
        self.made = []

    def __enter__(self):
        try:
            for ns in [self.hub] + self.leaves:
                _ip("ip", "netns", "add", ns)
                self.made.append(ns)
                _ip("ip", "link", "set", "lo", "up", ns=ns)
            _ip("sysctl", "-q", "-w", "net.ipv4.ip_forward=1", ns=self.hub)
            for i, leaf in enumerate(self.leaves):
                hub_end, leaf_end = "wh%d%s" % (i, self.hub[-4:]), "wl%d%s" % (i, self.hub[-4:])
                _ip("ip", "link", "add", hub_end, "netns", self.hub, "type", "veth", "peer", "name", leaf_end,
                    "netns", leaf)
                _ip("ip", "addr", "add", "10.213.%d.1/24" % (i + 1), "dev", hub_end, ns=self.hub)
                _ip("ip", "link", "set", hub_end, "up", ns=self.hub)
                _ip("ip", "addr", "add", "10.213.%d.2/24" % (i + 1), "dev", leaf_end, ns=leaf)
                _ip("ip", "link", "set", leaf_end, "up", ns=leaf)
                _ip("ip", "route", "add", "default", "via", "10.213.%d.1" % (i + 1), ns=leaf)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        for ns in reversed(self.made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, check=False)
        self.made = []

    def run_job(self, worker_cmd, env, timeout=120):
        """Scheduler in the hub, one server in leaf 0, a worker in each other leaf.
        Returns (the first non-zero worker status or 0, combined output)."""
        workers = len(self.leaves) - 1
        base = dict(env, WEFT_PS_ROOT_URI="10.213.1.1", WEFT_PS_ROOT_PORT="9123", WEFT_NUM_WORKER=str(workers),
                    WEFT_NUM_SERVER="1", WEFT_PS_TIMEOUT="20", WEFT_PS_SECRET=secrets.token_hex(32))
        node = [sys.executable, "-m", "weft.kvstore.server"]
        plan = [("scheduler", self.hub, node), ("server", self.leaves[0], node)]
        plan += [("worker", leaf, worker_cmd) for leaf in self.leaves[1:]]
        procs = []
        for role, ns, cmd in plan:
            procs.append((role, subprocess.Popen(["ip", "netns", "exec", ns] + cmd, env=dict(base, WEFT_ROLE=role),
                                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)))
        log, status = [], 0
        try:
            for role, p in procs:
                out, _ = p.communicate(timeout=timeout)
                log.append("--- %s (status %s)\n%s" % (role, p.returncode, out.decode(errors="replace")))
                if role == "worker" and p.returncode and not status:
                    status = p.returncode
                if role != "worker" and p.returncode:
                    status = status or p.returncode
        finally:
            for _, p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
        return status, "\n".join(log)
