"""The worker pools of DataLoader: processes that load batches as numpy (the
default), or threads (``thread_pool=True``).

Note [DataLoader workers]
~~~~~~~~~~~~~~~~~~~~~~~~~
Worker processes are started with 'fork' where it is available and safe (not
macOS), else 'spawn'. The engine is brought to rest around fork() and restarted
in parent and child (Note [Engine and fork] in core/engine/fork_handlers.cc),
so a dataset or transform may call weft operators in a worker. A worker
indexes the dataset, turns NDArray samples into numpy and batchifies with the
numpy twin of the batchify function (batchify.host_batchify); it sends numpy
back, and the parent makes the marked leaves NDArrays (_host.to_nd), so
batches cross the pipe as plain buffers. A batchify_fn without a numpy twin
(the user's own) runs in the parent on the loaded samples, NDArray samples
made NDArrays again first, so it sees what it would see with num_workers=0.

Wiring: each worker has its own task pipe (parent -> worker) and result pipe
(worker -> parent). Batches go to workers round robin, so which worker loads
which batch -- and so each worker's random augmentations, seeded per worker
from numpy's global state when the pool starts -- is reproducible. Results are
tagged (iterator id, batch number); the parent reads whichever pipe is ready,
keeps results of live iterators until asked for and drops those of iterators
that were abandoned (a loop left with break). An abandoned iterator also sends
the workers a cancel, and a worker reads all its messages before it starts a
task, so the batches it had queued are not loaded. Results travel as _wire.py
says: pickle protocol 5, large buffers in shared memory.

The parent watches the workers' sentinels together with the pipes, so a worker
that dies is reported at once; a batch that does not come within ``timeout`` is
reported too. Both leave the pool broken: it is shut down and the DataLoader
starts a new one at the next iteration. An exception inside a worker travels
back as the exception object (when it pickles) with the worker's traceback text
as its ``__cause__``; the pool stays usable.

Shutdown (the pool's finalizer: when the DataLoader and its iterators are
gone, or at interpreter exit): each worker is sent None and its result pipe is
closed (a worker blocked writing a batch then gets EPIPE), those still alive
after a short grace are terminated. Workers are daemonic, ignore SIGINT (the
parent handles ^C), close the inherited parent ends of every pool's pipes and
exit when their parent process is gone (checked every second while idle), so
none is left behind even when the parent is killed.
"""
import collections
import concurrent.futures
import hashlib
import multiprocessing
import multiprocessing.connection as mpc
import os
import pickle
import queue
import random
import signal
import sys
import threading
import time
import traceback
import warnings
import weakref

import numpy as np

from ...ndarray import waitall
from ...util import is_np_array, is_np_default_dtype, is_np_shape, set_np
from . import _wire
from ._host import to_host, to_nd
from .batchify import host_batchify

_START_METHOD = None  # None: 'fork' where available and safe, else 'spawn' (tests override it)
_SHUTDOWN_GRACE_S = 1.0
_PARENT_POLL_S = 1.0
_LIVE_POOLS = weakref.WeakSet()  # process pools whose parent ends forked workers must close


class DataLoaderWorkerError(RuntimeError):
    """A DataLoader worker died, or raised an exception that could not be sent
    back as it is (the message then holds its type, text and traceback)."""


class DataLoaderTimeoutError(multiprocessing.TimeoutError, TimeoutError):
    """No batch came from the DataLoader workers within ``timeout`` seconds.
    Also a ``multiprocessing.TimeoutError``, which is what MXNet raises."""


class _RemoteTraceback(Exception):
    """The ``__cause__`` of an exception re-raised from a worker: its traceback there."""

    def __init__(self, where, tb):
        super().__init__(where, tb)
        self.where = where
        self.tb = tb

    def __str__(self):
        return "\n\nTraceback in %s:\n%s" % (self.where, self.tb.rstrip("\n"))


def start_method():
    if _START_METHOD is not None:
        return _START_METHOD
    if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin":
        return "fork"
    return "spawn"


def _worker_seeds(num_workers):
    """One seed per worker, from numpy's global state without advancing it (so
    a shuffle draws the same permutation as with num_workers=0)."""
    state = np.random.get_state()
    key = hashlib.sha256(np.asarray(state[1]).tobytes() + repr(state[2:]).encode()).digest()
    return [int.from_bytes(hashlib.sha256(key + i.to_bytes(4, "little")).digest()[:4], "little")
            for i in range(num_workers)]


# ---- worker process --------------------------------------------------------------------
def _pack_error(exc, worker_id):
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        blob = pickle.dumps(exc, protocol=5)
        pickle.loads(blob)
    except Exception:  # pylint: disable=broad-except
        blob = None
    name = "%s.%s" % (type(exc).__module__, type(exc).__qualname__)
    return name, str(exc), tb, blob, worker_id, os.getpid()


def _next_task(tasks, pending, parent_pid):
    """The next task to run, None to stop. Reads every message there is first,
    so that a cancel drops the waiting tasks of an abandoned iterator."""
    while True:
        if tasks.poll(0 if pending else _PARENT_POLL_S):
            msg = tasks.recv()
            if msg is None:
                return None
            if msg[0] == "cancel":
                kept = [t for t in pending if t[0][0] != msg[1]]
                pending.clear()
                pending.extend(kept)
            else:
                pending.append(msg[1:])
        elif pending:
            return pending.popleft()
        elif os.getppid() != parent_pid:
            return None


def _np_flags():
    """This thread's NumPy-mode flags, for the workers it starts (Note [DataLoader in NumPy mode])."""
    return (is_np_shape(), is_np_array(), is_np_default_dtype())


def _worker_loop(worker_id, dataset, batchify, seed, tasks, results, inherited, parent_pid,
                 np_flags=(False, False, False)):
    """Loads the batches of ``tasks`` until None, EOF or the parent is gone.
    ``batchify`` is a numpy twin, or None to send the samples unbatched;
    ``np_flags`` the parent's set_np(shape, array, dtype) flags (Note [DataLoader in NumPy mode])."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_np(*np_flags)
    for conn in inherited:
        try:
            conn.close()
        except OSError:
            pass
    random.seed(seed)
    np.random.seed(seed)
    pending = collections.deque()
    while True:
        try:
            task = _next_task(tasks, pending, parent_pid)
        except (EOFError, OSError):
            return
        if task is None:
            return
        tag, indices = task
        try:
            samples = [to_host(dataset[i]) for i in indices]
            msg = _wire.dumps((tag, True, samples if batchify is None else batchify(samples)))
        except Exception as e:  # pylint: disable=broad-except
            msg = _wire.dumps((tag, False, _pack_error(e, worker_id)))
        try:
            _wire.send(results, msg)
        except OSError:  # the parent closed the pipe or is gone
            return


def _raise_remote(err, batch):
    name, text, tb, blob, worker_id, pid = err
    where = "DataLoader worker %d (pid %d), loading batch %d" % (worker_id, pid, batch)
    exc = None
    if blob is not None:
        try:
            exc = pickle.loads(blob)
        except Exception:  # pylint: disable=broad-except
            exc = None
    if not isinstance(exc, BaseException):
        raise DataLoaderWorkerError("%s: %s\n\nTraceback in %s:\n%s" % (name, text, where, tb))
    if hasattr(exc, "add_note"):
        exc.add_note("(raised in %s; its traceback there is shown above)" % where)
    raise exc from _RemoteTraceback(where, tb)


def _exit_text(exitcode):
    if exitcode is None:
        return "closed its pipe"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = "signal %d" % -exitcode
        hint = " (out of memory?)" if -exitcode == signal.SIGKILL else ""
        return "was killed by %s%s" % (name, hint)
    return "exited with code %d" % exitcode


def _shutdown_processes(creator_pid, procs, tasks, results, grace):
    if os.getpid() != creator_pid:  # a forked copy of the pool: not ours to stop
        return
    for conn in tasks:
        try:
            conn.send(None)
        except (OSError, ValueError):
            pass
    for conn in list(tasks) + list(results):
        try:
            conn.close()
        except OSError:
            pass
    deadline = time.monotonic() + grace
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in procs:
        if p.exitcode is None:
            p.terminate()
    for p in procs:
        p.join(1.0)
        if p.exitcode is None:
            p.kill()
            p.join()


class ProcessPool:
    """Worker processes loading batches of ``dataset`` (see the Note above)."""

    def __init__(self, num_workers, dataset, batchify_fn):
        method = start_method()
        ctx = multiprocessing.get_context(method)
        host = host_batchify(batchify_fn)
        self._parent_batchify = None if host is not None else batchify_fn
        self.broken = False
        self._live = set()
        self._next_iter = 0
        self._next_worker = 0
        self._done = {}
        self._lock = threading.RLock()
        if method == "fork":
            waitall()  # nothing may be pending on memory the children will read
        # (task_recv, task_send, result_recv, result_send): ends 1 and 2 are the parent's; the
        # result pipe is a socket pair when shared-memory descriptors travel over it
        pipes = [ctx.Pipe(duplex=False) + ctx.Pipe(duplex=_wire.USE_MEMFD) for _ in range(num_workers)]
        self._tasks = [p[1] for p in pipes]
        self._results = [p[2] for p in pipes]
        parent_ends = self._tasks + self._results
        for pool in list(_LIVE_POOLS):
            parent_ends += pool._tasks + pool._results  # pylint: disable=protected-access
        self._procs = []
        self._finalizer = weakref.finalize(self, _shutdown_processes, os.getpid(), self._procs, self._tasks,
                                           self._results, _SHUTDOWN_GRACE_S)
        try:
            for i, seed in enumerate(_worker_seeds(num_workers)):
                inherited = []
                if method == "fork":
                    inherited = parent_ends + [e for j, p in enumerate(pipes) if j != i for e in (p[0], p[3])]
                proc = ctx.Process(target=_worker_loop, name="weft-DataLoader-worker-%d" % i, daemon=True,
                                   args=(i, dataset, host, seed, pipes[i][0], pipes[i][3], inherited, os.getpid(),
                                         _np_flags()))
                with warnings.catch_warnings():  # 3.12+ warns of fork with threads: the engine's are at rest (fork_handlers.cc)
                    warnings.simplefilter("ignore", DeprecationWarning)
                    proc.start()
                self._procs.append(proc)
        except Exception as e:
            self._finalizer()
            if method == "spawn":
                raise DataLoaderWorkerError(
                    "could not start the DataLoader's worker processes with 'spawn', which pickles the dataset "
                    "and the batchify function (use module-level functions and classes rather than lambdas "
                    "or local functions, or thread_pool=True): %s: %s" % (type(e).__name__, e)) from e
            raise
        finally:
            for p in pipes:  # the children's ends: theirs now
                p[0].close()
                p[3].close()
        self._sentinels = {p.sentinel: i for i, p in enumerate(self._procs)}
        _LIVE_POOLS.add(self)

    @property
    def pids(self):
        return [p.pid for p in self._procs]

    def open_iter(self):
        with self._lock:
            self._next_iter += 1
            self._live.add(self._next_iter)
            return self._next_iter

    def close_iter(self, iter_id, pending=False):
        """Forgets an iterator's results; ``pending``: tell the workers to drop
        its batches not yet started."""
        with self._lock:
            self._live.discard(iter_id)
            for tag in [t for t in self._done if t[0] == iter_id]:
                del self._done[tag]
            if pending and not self.broken:
                for conn in self._tasks:
                    try:
                        conn.send(("cancel", iter_id))
                    except (OSError, ValueError):
                        pass

    def submit(self, tag, indices):
        with self._lock:
            w = self._next_worker
            self._next_worker = (w + 1) % len(self._procs)
            try:
                self._tasks[w].send(("load", tag, list(indices)))
            except OSError:
                self._dead(w)

    def get(self, tag, timeout):
        """The batch of ``tag`` as NDArrays; raises the worker's exception, or
        DataLoaderTimeoutError / DataLoaderWorkerError (the pool is then broken)."""
        with self._lock:
            deadline = None if timeout is None else time.monotonic() + timeout
            while tag not in self._done:
                if self.broken:
                    raise DataLoaderWorkerError("the DataLoader's worker pool was shut down after an error")
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    self._fail(DataLoaderTimeoutError(
                        "DataLoader: batch %d did not arrive from the worker processes within timeout=%gs. "
                        "Loading may be slow (raise timeout), or the dataset, a transform or the "
                        "batchify_fn blocks in a worker process." % (tag[1], timeout)))
                ready = mpc.wait(self._results + list(self._sentinels), remaining)
                for r in [r for r in ready if r in self._sentinels]:
                    self._drain(self._sentinels[r])
                for r in ready:
                    if r not in self._sentinels:
                        self._receive(self._results.index(r))
            ok, payload = self._done.pop(tag)
        if not ok:
            _raise_remote(payload, tag[1])
        if self._parent_batchify is not None:
            return self._parent_batchify(to_nd(payload))
        return to_nd(payload)

    def _receive(self, w):
        try:
            tag, ok, payload = _wire.recv(self._results[w])
        except (EOFError, OSError):
            self._dead(w)
            return
        except BaseException:  # ^C mid-message, or a batch that does not unpickle here
            self._break()
            raise
        if tag[0] in self._live:
            self._done[tag] = (ok, payload)

    def _drain(self, w):
        """Keeps what dead worker w sent before it died, then fails the pool."""
        conn = self._results[w]
        try:
            while conn.poll():
                tag, ok, payload = _wire.recv(conn)
                if tag[0] in self._live:
                    self._done[tag] = (ok, payload)
        except (EOFError, OSError):
            pass
        except BaseException:
            self._break()
            raise
        self._dead(w)

    def _dead(self, w):
        proc = self._procs[w]
        proc.join(2.0)  # its pipe and sentinel close before its exit status is there
        self._fail(DataLoaderWorkerError("DataLoader worker %d (pid %d) %s unexpectedly"
                                         % (w, proc.pid, _exit_text(proc.exitcode))))

    def _fail(self, exc):
        self._break()
        raise exc

    def _break(self):
        """Stops the workers now; the DataLoader starts a new pool next time."""
        self.broken = True
        self.shutdown(grace=0.0)

    def shutdown(self, grace=None):
        _LIVE_POOLS.discard(self)
        if grace is None or not self._finalizer.alive:
            self._finalizer()
            return
        self._finalizer.detach()
        _shutdown_processes(os.getpid(), self._procs, self._tasks, self._results, grace)


# ---- threads ---------------------------------------------------------------------------
def _thread_loop(tasks, dataset, batchify_fn, np_flags):
    set_np(*np_flags)  # a new thread starts with NumPy mode off
    while True:
        item = tasks.get()
        if item is None:
            return
        future, indices = item
        if not future.set_running_or_notify_cancel():
            continue
        try:
            future.set_result(batchify_fn([dataset[i] for i in indices]))
        except BaseException as e:  # pylint: disable=broad-except
            future.set_exception(e)


class ThreadPool:
    """Daemon threads of this process loading batches with the batchify
    function itself (operators allowed)."""

    def __init__(self, num_workers, dataset, batchify_fn):
        self.broken = False
        self._tasks = queue.SimpleQueue()
        self._futures = {}
        self._live = set()
        self._next_iter = 0
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=_thread_loop, args=(self._tasks, dataset, batchify_fn, _np_flags()),
                                          name="weft-DataLoader-thread-%d" % i, daemon=True)
                         for i in range(num_workers)]
        for t in self._threads:
            t.start()
        self._finalizer = weakref.finalize(self, _stop_threads, self._tasks, num_workers)

    def open_iter(self):
        with self._lock:
            self._next_iter += 1
            self._live.add(self._next_iter)
            return self._next_iter

    def close_iter(self, iter_id, pending=False):  # pylint: disable=unused-argument
        with self._lock:
            self._live.discard(iter_id)
            for tag in [t for t in self._futures if t[0] == iter_id]:
                self._futures.pop(tag).cancel()

    def submit(self, tag, indices):
        future = concurrent.futures.Future()
        with self._lock:
            self._futures[tag] = future
        self._tasks.put((future, list(indices)))

    def get(self, tag, timeout):
        with self._lock:
            future = self._futures.pop(tag)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            if future.done():  # the batch itself raised a TimeoutError
                raise
            self.broken = True  # a thread may be stuck: leave it, start afresh next time
            self.shutdown()
            raise DataLoaderTimeoutError("DataLoader: batch %d did not arrive from the worker threads "
                                         "within timeout=%gs (raise timeout if loading is slow)"
                                         % (tag[1], timeout)) from None

    def shutdown(self):
        self._finalizer()


def _stop_threads(tasks, count):
    for _ in range(count):
        tasks.put(None)
