"""Level-2 KVStore with real processes on loopback (scheduler, servers and
workers started by python -m weft.launch or, for the fault tests, one by one):
dist_sync equals one process on the whole batch, dist_async converges,
dist_device_sync, the API of a dist store, a killed worker or server stops the
job with a clear error within WEFT_PS_TIMEOUT, bad bytes sent to a server are
rejected while it keeps serving, a stranger outside the job is refused
(Note [PS authentication]), messages recorded in an earlier run with the same
secret are refused in the next (Note [PS runs]), a server keeps serving with bounded memory after
10,000 malformed messages, and network namespaces when the machine allows
them."""
import os
import re
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS = os.path.join(HERE, "kvstore_workers")
sys.path.insert(0, WORKERS)
import zmtp  # noqa: E402  pylint: disable=wrong-import-position

TRAIN = os.path.join(WORKERS, "train_mlp.py")
API = os.path.join(WORKERS, "api_worker.py")
TIMEOUT = 5  # WEFT_PS_TIMEOUT of the fault tests


def _env(**extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("WEFT_ROLE", "DMLC_", "WEFT_PS_", "WEFT_NUM_", "WEFT_NODE_")):
            del env[k]
    env.update({k: str(v) for k, v in extra.items()})
    return env


def launch(workers, servers, command, timeout=120, **env):
    """Runs weft.launch; returns (status, output)."""
    cmd = [sys.executable, "-m", "weft.launch", "-n", str(workers), "-s", str(servers), "--timeout", "20", "--"]
    proc = subprocess.run(cmd + command, env=_env(**env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout, check=False)
    return proc.returncode, proc.stdout.decode(errors="replace")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Job:
    """Scheduler, servers and workers started one by one (so a test can kill one)."""

    def __init__(self, workers, servers, worker_cmd, timeout=TIMEOUT, server_port=None, dmlc_names=False,
                 secret=None, raw_workers=0, **env):
        """raw_workers: further workers the test plays itself (zmtp.Signer.register); secret: the
        job's WEFT_PS_SECRET (default: a fresh one, what weft.launch would hand every process)."""
        self.port = _free_port()
        prefix = "DMLC_" if dmlc_names else "WEFT_"  # MXNet's variable names are accepted too
        self.role_var = prefix + "ROLE"
        self.secret = secret or secrets.token_hex(32)
        base = {prefix + "PS_ROOT_URI": "127.0.0.1", prefix + "PS_ROOT_PORT": self.port,
                prefix + "NUM_WORKER": workers + raw_workers, prefix + "NUM_SERVER": servers,
                "WEFT_PS_TIMEOUT": timeout, "WEFT_PS_SECRET": self.secret}
        base.update(env)
        node = [sys.executable, "-m", "weft.kvstore.server"]
        self.procs = {}
        self._start("scheduler", node, base)
        for i in range(servers):
            extra = {"WEFT_NODE_PORT": server_port} if server_port else {}
            self._start("server%d" % i, node, dict(base, **extra), role="server")
        for i in range(workers):
            self._start("worker%d" % i, worker_cmd, base, role="worker")
        self.out = {name: b"" for name in self.procs}

    def _start(self, name, cmd, env, role=None):
        env = dict(env, **{self.role_var: role or name})
        self.procs[name] = subprocess.Popen(cmd, env=_env(**env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def run_id(self):
        """The run id the scheduler drew (Note [PS runs]), from the line it prints at start."""
        self.read_until("weft kvstore scheduler: run ", 1)
        line = self.out["scheduler"].decode().split("weft kvstore scheduler: run ", 1)[1]
        return int(line.split()[0], 16)

    def read_until(self, text, count, deadline_s=60):
        """Collects output until `text` appeared `count` times in all outputs together."""
        deadline = time.time() + deadline_s
        while sum(o.count(text.encode()) for o in self.out.values()) < count:
            assert time.time() < deadline, "timed out waiting for %r: %s" % (text, self.outputs())
            self._pump(0.1)

    def _pump(self, wait):
        pipes = {p.stdout.fileno(): n for n, p in self.procs.items() if p.stdout and not p.stdout.closed}
        ready, _, _ = select.select(list(pipes), [], [], wait)
        for fd in ready:
            data = os.read(fd, 65536)
            if data:
                self.out[pipes[fd]] += data

    def wait_all(self, limit_s):
        """Exit codes of every process; fails if one is still running after limit_s."""
        deadline = time.time() + limit_s
        while any(p.poll() is None for p in self.procs.values()):
            if time.time() > deadline:
                running = [n for n, p in self.procs.items() if p.poll() is None]
                self.kill()
                pytest.fail("still running %d s after the fault: %s\n%s" % (limit_s, running, self.outputs()))
            self._pump(0.1)
        self._pump(0)
        for n, p in self.procs.items():
            rest = p.stdout.read()
            if rest:
                self.out[n] += rest
        return {n: p.returncode for n, p in self.procs.items()}

    def outputs(self):
        return "\n".join("--- %s\n%s" % (n, o.decode(errors="replace")) for n, o in self.out.items())

    def kill(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()


@pytest.fixture
def job_cleanup():
    jobs = []
    yield jobs.append
    for j in jobs:
        j.kill()


def _train(tmp_path, name, *args, launch_args=None, **env):
    out = str(tmp_path / (name + ".npz"))
    status, log = launch(*(launch_args or (2, 2)), [sys.executable, TRAIN, "--out", out] + list(args), **env)
    assert status == 0, log
    return np.load(out), log


def _reference(tmp_path, *args):
    out = str(tmp_path / "ref.npz")
    subprocess.run([sys.executable, TRAIN, "--out", out] + list(args), env=_env(), check=True, timeout=120,
                   stdout=subprocess.DEVNULL)
    return np.load(out)


def _assert_same(ref, got):
    assert sorted(ref.files) == sorted(got.files)
    for k in ref.files:
        np.testing.assert_allclose(got[k], ref[k], rtol=1e-4, atol=1e-5, err_msg=k)


def test_dist_sync_equals_one_process_with_the_whole_batch(tmp_path):
    # 2 workers x batch 4 == 1 process x batch 8; SGD with momentum on 2 servers,
    # the first layer's weight split across them by range (bound 20 elements).
    got, _ = _train(tmp_path, "sync", "--kvstore", "dist_sync", WEFT_KVSTORE_BIGARRAY_BOUND=20)
    _assert_same(_reference(tmp_path), got)


def test_dist_device_sync_with_worker_side_adam(tmp_path):
    # 2 workers x 2 devices: level-1 reduction, then the servers sum; Adam runs on
    # the workers (update_on_kvstore=False) and must agree with one process.
    args = ["--optimizer", "adam", "--update-on-kvstore", "no"]
    got, _ = _train(tmp_path, "device_sync", "--kvstore", "dist_device_sync", "--devices", "2", *args,
                    launch_args=(2, 1))
    _assert_same(_reference(tmp_path, *args), got)


def test_dist_async_converges(tmp_path):
    _, log = _train(tmp_path, "async", "--kvstore", "dist_async", "--steps", "40", "--momentum", "0",
                    launch_args=(2, 1))
    finals = []
    # Searched in the whole log, not line by line: the two workers write to one pipe, and one's
    # line can land before the other's newline ("... -> 0.114423worker 1 done after ...").
    for m in re.finditer(r"done after \d+ steps: loss ([0-9.eE+-]+) -> ([0-9]+\.[0-9]+)", log):
        start, end = float(m.group(1)), float(m.group(2))
        assert end < 0.25 * start, m.group(0)
        finals.append(end)
    assert len(finals) == 2 and finals[0] == pytest.approx(finals[1]), log  # both end on the servers' weights


def test_dist_store_api():
    status, log = launch(2, 2, [sys.executable, API], WEFT_KVSTORE_BIGARRAY_BOUND=1000)
    assert status == 0, log
    assert log.count("ok") == 2, log


def test_launcher_exit_status_is_the_workers():
    status, log = launch(2, 1, [sys.executable, "-c", "import weft, sys; kv = weft.kv.create('dist_sync'); "
                                "sys.exit(3 if kv.rank == 1 else 0)"])
    assert status == 3, log


@pytest.mark.parametrize("victim", ["worker1", "server0"])
def test_killed_node_stops_the_job(victim, job_cleanup):
    job = Job(2, 1, [sys.executable, TRAIN, "--kvstore", "dist_sync", "--forever"])
    job_cleanup(job)
    job.read_until("ready", 2)
    time.sleep(1.0)  # training is under way
    job.procs[victim].send_signal(signal.SIGKILL)
    killed_at = time.time()
    codes = job.wait_all(TIMEOUT + 15)
    elapsed = time.time() - killed_at
    text = job.outputs()
    for name, code in codes.items():
        if name != victim:
            assert code != 0, "%s exited with 0 after %s died\n%s" % (name, victim, text)
    role, rank = victim[:-1], victim[-1]
    assert "%s %s" % (role, rank) in job.out["scheduler"].decode() and "sent nothing" in text, text
    assert "the job was stopped" in text, text
    assert elapsed < TIMEOUT + 15, elapsed


def test_bad_messages_are_rejected_and_the_server_keeps_serving(tmp_path, job_cleanup):
    port = _free_port()
    go = str(tmp_path / "go")
    job = Job(1, 1, [sys.executable, API, "--go", go], timeout=20, server_port=port, dmlc_names=True,
              WEFT_PS_MAX_MESSAGE_BYTES=1 << 20)
    job_cleanup(job)
    job.read_until("ready", 1)

    # 1. well-formed ZMTP carrying malformed weft messages
    s = zmtp.connect_dealer(port)
    mac = b"\0" * 32
    zmtp.send_message(s, [b"garbage"])
    zmtp.send_message(s, [b"short header", b"", b"", mac])
    zmtp.send_message(s, [zmtp.header(zmtp.CMD_PUSH, b"small", 0, magic=0xDEADBEEF), b"small", b"", mac])
    zmtp.send_message(s, [zmtp.header(zmtp.CMD_PUSH, b"small", 1 << 40), b"small", b"x", mac])
    zmtp.send_message(s, [zmtp.header(99, b"", 0), b"", b"", mac])
    # 2. just over WEFT_PS_MAX_MESSAGE_BYTES: rejected by the header check
    big = (1 << 20) + 4096
    zmtp.send_message(s, [zmtp.header(zmtp.CMD_PUSH, b"small", big), b"small", b"\0" * big, mac])
    # 3. a valid (signed) message whose size does not match the key: an error reply naming it
    #    (and, as the server reads a connection in order, proof that 1 and 2 were logged)
    zmtp.send_message(s, zmtp.Signer(job.secret, run_id=job.run_id()).message(zmtp.CMD_PUSH, b"small", b"\0" * 8,
                                                                               total=20))
    reply = zmtp.recv_message(s)
    head = zmtp.HEADER.unpack(reply[0])
    assert head[2] == zmtp.CMD_ERROR and b"key 'small'" in reply[2], reply
    # 4. random bytes. Not dropped outright: unless the first byte is 0xFF, ZeroMQ takes the peer
    #    for an unversioned ZMTP 1.0 one and decodes the bytes into a dozen or more (up to ~30)
    #    messages, each rejected. They come after 1-3 on purpose: they may fill the rejection
    #    log's 20 lines per 10 s, which would hide the lines checked below.
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.sendall(os.urandom(4096))
    # 5. far over the limit: ZeroMQ itself disconnects the sender (maybe while we still send)
    try:
        zmtp.send_message(s, [zmtp.header(zmtp.CMD_PUSH, b"small", 4 << 20), b"small", b"\0" * (4 << 20)])
    except ConnectionError:
        pass
    s.close()

    with open(go, "w", encoding="utf-8"):
        pass
    codes = job.wait_all(60)
    text = job.outputs()
    assert all(c == 0 for c in codes.values()), text
    assert "worker 0 ok" in text, text
    server = job.out["server0"].decode()
    for why in ("expected 5 frames", "header frame of 12 bytes", "bad magic", "exceeds the limit",
                "unknown command 99"):
        assert why in server, (why, server)


def _reply(sock):
    """(command, key, payload) of the server's next reply."""
    frames = zmtp.recv_message(sock)
    return zmtp.HEADER.unpack(frames[0])[2], frames[1], frames[2]


def test_stranger_outside_the_job_is_refused(tmp_path, job_cleanup):
    # The finding of issue 22 point 7: a process outside the job pulled a key, overwrote it with
    # a non-sync push, pushed in sync mode as worker 0 and installed `sgd lr=100`, and the real
    # worker's values went wrong. Each of those, unsigned, signed for another job, with a forged
    # MAC, replayed, or captured on the way to another node, must now be refused.
    port = _free_port()
    go = str(tmp_path / "go")
    job = Job(1, 1, [sys.executable, API, "--go", go], timeout=20, server_port=port)
    job_cleanup(job)
    job.read_until("ready", 1)
    junk = np.full(20, 100, np.float32).tobytes()
    attempts = [(zmtp.CMD_PULL, b"small", b"", dict(total=20)),
                (zmtp.CMD_PUSH, b"small", junk, dict(flags=0, total=20)),
                (zmtp.CMD_PUSH, b"small", junk, dict(flags=zmtp.FLAG_SYNC, sender=0, total=20)),
                (zmtp.CMD_SET_OPTIMIZER, b"", b'{"name": "sgd", "learning_rate": 100}', {}),
                (zmtp.CMD_INIT, b"junk", junk, dict(total=20))]
    other_job = zmtp.Signer(secrets.token_hex(32))
    insider = zmtp.Signer(job.secret, run_id=job.run_id())  # a member of this run whose traffic was captured
    insider.nonce = 1000  # its later messages (the captured ones have nonces 50 and 100)
    s = zmtp.connect_dealer(port)
    captured = insider.message(zmtp.CMD_PULL, b"small", total=20, nonce=100)
    zmtp.send_message(s, captured)  # its original delivery
    assert _reply(s)[0] == zmtp.CMD_PULL_REPLY
    for command, key, payload, fields in attempts:
        genuine = insider.message(command, key, payload, nonce=50, **fields)  # an older captured message
        forged = genuine[:3] + [os.urandom(32)]
        misdirected = insider.message(command, key, payload, recipient_rank=1, **fields)  # was for server 1
        to_a_worker = insider.message(command, key, payload, recipient_role=zmtp.WORKER, **fields)
        for frames in (genuine[:3], other_job.message(command, key, payload, **fields), forged, genuine,
                       misdirected, to_a_worker):
            zmtp.send_message(s, frames)
    zmtp.send_message(s, captured)  # the same bytes again
    # The scheduler refuses a stranger's registration, barrier and finalize alike.
    sched = zmtp.connect_dealer(job.port)
    for command in (zmtp.CMD_REGISTER, zmtp.CMD_BARRIER, zmtp.CMD_FINALIZE):
        zmtp.send_message(sched, [zmtp.header(command, b"", 0, recipient_role=zmtp.SCHEDULER), b"", b"",
                                  b"\0" * 32])
        zmtp.send_message(sched, other_job.message(command, recipient_role=zmtp.SCHEDULER))
    # Everything above came first on this connection: the server never created the junk key.
    zmtp.send_message(s, insider.message(zmtp.CMD_PULL, b"junk", total=20))
    command, _, text = _reply(s)
    assert command == zmtp.CMD_ERROR and b"'junk' has not been initialised" in text, text
    job.read_until("weft kvstore scheduler: rejected a message from 127.0.0.1", 6)
    s.close()
    sched.close()

    with open(go, "w", encoding="utf-8"):
        pass
    codes = job.wait_all(60)
    text = job.outputs()
    assert all(c == 0 for c in codes.values()), text
    assert "worker 0 ok" in text, text  # its values are exactly those of the job's own pushes
    server = job.out["server0"].decode()
    for why in ("expected 5 frames", "message from another job", "bad MAC", "replayed message",
                "message meant for server 1", "message meant for worker"):
        assert "rejected a message from 127.0.0.1: " + why in server, (why, server)
    assert server.count("rejected a message from 127.0.0.1") >= 20, server


def _capture_run(secret, port, job_cleanup):
    """Run A: a scheduler and a server, and the test as the run's one worker (registered the
    way van.cc registers). Returns the frames of its legitimate init and push of 'small' (20
    float32 of 100, acked and pulled back in run A), of its finalize and of the scheduler's
    acknowledgement of its registration, and run A's id; run A has ended cleanly."""
    job = Job(0, 1, None, timeout=20, server_port=port, secret=secret, raw_workers=1)
    job_cleanup(job)
    run = job.run_id()  # printed once the scheduler listens
    worker = zmtp.Signer(secret)
    sched, rank, servers, reg_ack = worker.register(job.port)
    assert rank == 0 and servers == ["127.0.0.1:%d" % port], (rank, servers)
    assert worker.run_id == run
    # Another process with the secret and the run id, on the registered worker's connection (a
    # worker restarted under the same name): refused, else this finalize would end run A now.
    impostor = zmtp.Signer(secret, run_id=run)
    zmtp.send_message(sched, impostor.message(zmtp.CMD_FINALIZE, flags=0, sender=rank,
                                              recipient_role=zmtp.SCHEDULER, recipient_rank=0))
    job.read_until("signed by another process (process id %016x, registered as %016x)"
                   % (impostor.incarnation, worker.incarnation), 1)
    s = zmtp.connect_dealer(port)
    value = np.full(20, 100, np.float32).tobytes()
    addressed = dict(sender=rank, recipient_rank=0, total=20)
    init = worker.message(zmtp.CMD_INIT, b"small", np.zeros(20, np.float32).tobytes(), flags=0, **addressed)
    push = worker.message(zmtp.CMD_PUSH, b"small", value, flags=0, **addressed)  # as dist_async sends it
    for frames in (init, push):
        zmtp.send_message(s, frames)
        assert _reply(s)[0] == zmtp.CMD_ACK
    zmtp.send_message(s, worker.message(zmtp.CMD_PULL, b"small", flags=0, **addressed))
    command, _, pulled = _reply(s)
    assert command == zmtp.CMD_PULL_REPLY and pulled == value  # the push took effect in its own run
    finalize = worker.message(zmtp.CMD_FINALIZE, flags=0, sender=rank, recipient_role=zmtp.SCHEDULER,
                              recipient_rank=0)
    zmtp.send_message(sched, finalize)
    codes = job.wait_all(30)
    assert all(c == 0 for c in codes.values()), job.outputs()
    s.close()
    sched.close()
    return init, push, finalize, reg_ack, worker.run_id


def test_messages_of_an_earlier_run_are_refused(tmp_path, job_cleanup):
    # Issue 35 point 3: the same WEFT_PS_SECRET for two runs (a Kubernetes Secret outlives a
    # job). A push recorded in run A was acked by the server of run B -- here restarted at the
    # same address -- and B's worker then pulled the replayed value. Every MAC now covers the
    # scheduler's random run id (Note [PS runs]), so run A's messages are refused in run B.
    secret = secrets.token_hex(32)
    port = _free_port()
    init, push, finalize, reg_ack, run_a = _capture_run(secret, port, job_cleanup)

    go = str(tmp_path / "go")
    job = Job(1, 1, [sys.executable, API, "--go", go], timeout=20, server_port=port, secret=secret)
    job_cleanup(job)
    job.read_until("ready", 1)  # B's server has 'small' and the sgd optimizer (lr 0.5)
    run_b = job.run_id()
    assert run_b != run_a
    s = zmtp.connect_dealer(port)
    for frames in (init, push, push, reg_ack):
        zmtp.send_message(s, frames)
    # A process that has the secret but never joined run B (restarted after it began).
    outsider = zmtp.Signer(secret)
    zmtp.send_message(s, outsider.message(zmtp.CMD_PUSH, b"small", push[2], flags=0, total=20))
    sched = zmtp.connect_dealer(job.port)
    zmtp.send_message(sched, finalize)  # would end run B's job early if counted
    # A member of run B, after the replays on the same connection: its error reply proves
    # the server has read (and refused) them; 'junk' was never created.
    member = zmtp.Signer(secret, run_id=run_b)
    zmtp.send_message(s, member.message(zmtp.CMD_PULL, b"junk", total=20))
    command, _, text = _reply(s)
    assert command == zmtp.CMD_ERROR and b"'junk' has not been initialised" in text, text
    job.read_until("weft kvstore scheduler: rejected a message from 127.0.0.1", 1)
    s.close()
    sched.close()

    with open(go, "w", encoding="utf-8"):
        pass
    codes = job.wait_all(60)
    text = job.outputs()
    assert all(c == 0 for c in codes.values()), text
    assert "worker 0 ok" in text, text  # it pulled exactly its own run's values: the replayed push (an
    # sgd step of -0.5 * 100 had it been applied) changed nothing
    why = ("rejected a message from 127.0.0.1: message from another run (run id %016x, this run's is %016x)"
           % (run_a, run_b))
    server = job.out["server0"].decode()
    assert server.count(why) == 4, server
    assert why in job.out["scheduler"].decode(), job.outputs()
    assert "rejected a message from 127.0.0.1: push message from a process outside this run" in server, server
    print(next(line for line in server.splitlines() if why in line))


def _rss_kib(pid):
    with open("/proc/%d/status" % pid, encoding="utf-8") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for %d" % pid)


def _malformed(i, rng, signer):
    """Message i of the abuse test: (frames, whether the server answers it)."""
    kind = i % 10
    nan = np.array([np.nan, np.inf, -np.inf, 3e38] * 8, np.float32).tobytes()
    big = (1 << 64) - 20  # a "negative" unsigned size
    if kind == 0:  # random frames
        return [rng.bytes(int(rng.integers(0, 200))) for _ in range(int(rng.integers(1, 7)))], False
    if kind == 1:  # wrong magic or version
        return [zmtp.header(zmtp.CMD_PUSH, b"small", 0, magic=int(rng.integers(0, 1 << 32)), version=i % 7 + 3),
                b"small", b"", b"\0" * 32], False
    if kind == 2:  # huge dims announced
        return [zmtp.header(zmtp.CMD_PUSH, b"small", big, total=big, offset=big), b"small", b"x", b"\0" * 32], False
    if kind == 3:  # truncated body
        return [zmtp.header(zmtp.CMD_PUSH, b"small", 1000, total=20), b"small", b"\0" * 10, b"\0" * 32], False
    if kind == 4:  # NaN / Inf values with a forged MAC
        return signer.message(zmtp.CMD_PUSH, b"small", nan[:80], total=20)[:3] + [rng.bytes(32)], False
    if kind == 5:  # negative shape header fields, unsigned
        return [zmtp.header(zmtp.CMD_INIT, b"neg", 80, sender=-5, dtype=-1, offset=big, total=big), b"neg",
                nan[:80], b"\0" * 32], False
    if kind == 6:  # signed, but the wrong size (NaN / Inf values)
        return signer.message(zmtp.CMD_PUSH, b"small", nan[:4 * int(rng.integers(1, 8))], total=20), True
    if kind == 7:  # signed, huge or negative dims / unknown key
        return signer.message(zmtp.CMD_PULL, b"small" if i % 20 < 10 else b"nokey%d" % i, total=big), True
    if kind == 8:  # signed, bad JSON / out-of-range optimizer
        spec = [b"{", b'{"name": "sgd", "learning_rate": "x"}', b'{"name": "nope"}', b"[1, 2]",
                b'{"name": "sgd", "learning_rate": 1e999}'][i // 10 % 5]
        return signer.message(zmtp.CMD_SET_OPTIMIZER, b"", spec), True
    # signed: an out-of-range dtype flag, and a second init of a key
    if i % 20 < 10:
        return signer.message(zmtp.CMD_PUSH, b"small", b"\0" * 80, dtype=99, total=20), True
    return signer.message(zmtp.CMD_INIT, b"small", b"\0" * 80, total=20), True


def test_server_keeps_serving_after_10000_malformed_messages(tmp_path, job_cleanup):
    # Issue 22 point 8: bounded counts on loopback; the RSS of the server before and after is printed.
    port = _free_port()
    go = str(tmp_path / "go")
    job = Job(1, 1, [sys.executable, API, "--go", go], timeout=30, server_port=port,
              WEFT_PS_MAX_MESSAGE_BYTES=1 << 20)
    job_cleanup(job)
    job.read_until("ready", 1)
    server_pid = job.procs["server0"].pid
    rss_before = _rss_kib(server_pid)
    rng = np.random.default_rng(22)
    signer = zmtp.Signer(job.secret, run_id=job.run_id())
    # slow clients: connections that never finish the handshake, held through the flood
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
    for c in slow:
        c.sendall(b"\xff\0\0")
    for _ in range(5):  # not ZMTP at all
        with socket.create_connection(("127.0.0.1", port)) as raw:
            raw.sendall(rng.bytes(2048))
    s = zmtp.connect_dealer(port)
    answered = 0
    for i in range(10000):
        if i % 2500 == 1:  # far over the size limit: ZeroMQ drops the connection before allocating
            try:
                zmtp.send_message(s, [b"x" * (3 << 20)])
            except (ConnectionError, OSError):
                pass
            s.close()
            s = zmtp.connect_dealer(port)
        frames, replied = _malformed(i, rng, signer)
        zmtp.send_message(s, frames)
        if replied:
            command, _, text = _reply(s)
            assert command == zmtp.CMD_ERROR, (i, command, text)
            answered += 1
    zmtp.send_message(s, signer.message(zmtp.CMD_PULL, b"small", total=20))  # after the flood: still right
    command, _, value = _reply(s)
    assert command == zmtp.CMD_PULL_REPLY and len(value) == 80
    rss_after = _rss_kib(server_pid)
    print("kvstore server RSS: %d KiB before, %d KiB after 10000 malformed messages (%d answered with an error)"
          % (rss_before, rss_after, answered))
    s.close()
    for c in slow:
        c.close()
    assert rss_after - rss_before < 64 * 1024, (rss_before, rss_after)

    with open(go, "w", encoding="utf-8"):
        pass
    codes = job.wait_all(60)
    text = job.outputs()
    assert all(c == 0 for c in codes.values()), text
    assert "worker 0 ok" in text, text
    server = job.out["server0"].decode()
    assert "rejected a message from " in server and len(server) < 20000, server[-3000:]  # logged, rate-limited


def test_launcher_command_lines(tmp_path):
    from weft import launch  # pylint: disable=import-outside-toplevel
    hosts = tmp_path / "hosts"
    hosts.write_text("# cluster\nnode-a slots=4\nnode-b\n")
    args = launch.parse_args(["-n", "2", "-s", "1", "--launcher", "ssh", "-H", str(hosts), "--timeout", "9",
                              "--", "python", "train.py", "--lr", "0.1"])
    cmds = launch.ssh_commands(args, launch._read_hosts(str(hosts)), 9000)  # pylint: disable=protected-access
    assert [r for r, _ in cmds] == ["scheduler", "server", "worker", "worker"]
    assert [c[5] for _, c in cmds] == ["node-a", "node-b", "node-a", "node-b"]
    sched, worker = cmds[0][1][-1], cmds[2][1][-1]
    for var in ("WEFT_PS_ROOT_URI=node-a", "WEFT_PS_ROOT_PORT=9000", "WEFT_NUM_WORKER=2", "WEFT_NUM_SERVER=1",
                "WEFT_PS_TIMEOUT=9", "DMLC_ROLE=worker"):
        assert var in worker, worker
    assert "WEFT_ROLE=scheduler" in sched and "-m weft.kvstore.server" in sched
    assert worker.endswith("python train.py --lr 0.1")

    args = launch.parse_args(["-n", "3", "-s", "2", "--launcher", "mpi", "--", "python", "train.py"])
    cmd = launch.mpi_command(args, 9001)
    assert cmd[0] == "mpirun" and cmd.count(":") == 2
    groups = " ".join(cmd).split(" : ")
    assert "-np 1" in groups[0] and "WEFT_ROLE=scheduler" in groups[0]
    assert "-np 2" in groups[1] and "WEFT_ROLE=server" in groups[1]
    assert "-np 3" in groups[2] and "WEFT_ROLE=worker" in groups[2] and groups[2].endswith("python train.py")
    with pytest.raises(SystemExit):
        launch.parse_args(["-n", "2"])  # no command


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="mpirun (openmpi-bin) is not installed")
def test_mpi_launcher_runs_a_job():
    cmd = [sys.executable, "-m", "weft.launch", "-n", "2", "-s", "1", "--launcher", "mpi", "--mpi-args",
           "--allow-run-as-root --oversubscribe", "--", sys.executable, API]
    proc = subprocess.run(cmd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0 and out.count("ok") == 2, out


def _netns_available():
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = "weftprobe%d" % os.getpid()
    r = subprocess.run(["ip", "netns", "add", probe], capture_output=True, check=False)
    if r.returncode != 0:
        return "ip netns add failed: %s" % r.stderr.decode().strip()
    subprocess.run(["ip", "netns", "del", probe], capture_output=True, check=False)
    return None


def test_dist_sync_across_network_namespaces(tmp_path):
    why = _netns_available()
    if why:
        pytest.skip("network namespaces are not available here: " + why)
    import netns_job  # pylint: disable=import-outside-toplevel,import-error
    out = str(tmp_path / "netns.npz")
    try:
        ns = netns_job.Namespaces(3).__enter__()  # hub: scheduler | server | worker 0 | worker 1
    except subprocess.CalledProcessError as exc:
        pytest.skip("setting up namespaces with veth links failed here: %s: %s"
                    % (" ".join(exc.cmd), exc.stderr.decode(errors="replace").strip()))
    try:
        status, log = ns.run_job([sys.executable, TRAIN, "--kvstore", "dist_sync", "--out", out], env=_env())
    finally:
        ns.__exit__(None, None, None)
    assert status == 0, log
    _assert_same(_reference(tmp_path), np.load(out))
