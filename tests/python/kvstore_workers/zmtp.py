"""Just enough of ZMTP 3.0 (the ZeroMQ wire protocol, rfc.zeromq.org/spec/23)
to talk to a weft server's ROUTER socket from a plain socket: the tests send
it malformed, oversized and unauthenticated messages without needing pyzmq,
and sign messages as a node of the job would (sign())."""
import hashlib
import hmac
import os
import socket
import struct


def _recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("peer closed the connection")
        buf += chunk
    return buf


def _read_frame(sock):
    flags = _recv_exact(sock, 1)[0]
    size = struct.unpack(">Q", _recv_exact(sock, 8))[0] if flags & 0x02 else _recv_exact(sock, 1)[0]
    return flags, _recv_exact(sock, size)


def connect_dealer(port, host="127.0.0.1", timeout=10.0):
    """A socket that completed the NULL-mechanism handshake as a DEALER."""
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no Nagle wait between a message and its reply
    greeting = b"\xff" + b"\x00" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\x00") + b"\x00" + b"\x00" * 31
    sock.sendall(greeting)
    _recv_exact(sock, 64)
    body = b"\x05READY" + b"\x0bSocket-Type" + struct.pack(">I", 6) + b"DEALER"
    sock.sendall(b"\x04" + bytes([len(body)]) + body)
    flags, _ = _read_frame(sock)  # the peer's READY command
    if not flags & 0x04:
        raise ConnectionError("expected the peer's READY command")
    return sock


def send_message(sock, frames):
    out = b""
    for i, f in enumerate(frames):
        more = 0x01 if i + 1 < len(frames) else 0x00
        if len(f) < 256:
            out += bytes([more, len(f)]) + f
        else:
            out += bytes([more | 0x02]) + struct.pack(">Q", len(f)) + f
    sock.sendall(out)


def recv_message(sock):
    frames = []
    while True:
        flags, data = _read_frame(sock)
        if flags & 0x04:
            continue  # a command (e.g. a heartbeat), not a message frame
        frames.append(data)
        if not flags & 0x01:
            return frames


# core/kvstore/ps_message.h, struct Header (96 bytes, little-endian; Note [PS wire format])
HEADER = struct.Struct("<IHHQiiIIQQQQQQQBBHi")
MAGIC = 0x54464557
VERSION = 3
CMD_REGISTER, CMD_REGISTER_ACK, CMD_HEARTBEAT, CMD_BARRIER, CMD_FINALIZE = 1, 2, 3, 4, 6
CMD_INIT, CMD_PUSH, CMD_PULL, CMD_SET_OPTIMIZER, CMD_ACK, CMD_PULL_REPLY, CMD_ERROR = 10, 11, 12, 13, 14, 15, 16
WORKER, SERVER, SCHEDULER = 0, 1, 2
FLAG_SYNC = 1


def header(command, key, payload_bytes, magic=MAGIC, version=VERSION, sender=0, dtype=0, offset=0, total=0,
           flags=1, request_id=1, job_id=0, run_id=0, incarnation=0, nonce=0, sender_role=WORKER,
           recipient_role=SERVER, recipient_rank=-1):
    return HEADER.pack(magic, version, command, request_id, sender, dtype, len(key), flags, payload_bytes, offset,
                       total, job_id, run_id, incarnation, nonce, sender_role, recipient_role, 0, recipient_rank)


# Field positions in HEADER.unpack(...)
F_COMMAND, F_REQUEST_ID, F_ARG, F_RUN_ID, F_INCARNATION = 2, 3, 5, 12, 13


def job_id(secret_hex):
    """The job id of a secret (core/kvstore/ps_auth.cc: the first 8 bytes of a tagged SHA-256)."""
    return struct.unpack("<Q", hashlib.sha256(b"weft ps job id\n" + bytes.fromhex(secret_hex)).digest()[:8])[0]


def mac(secret_hex, head, key, payload):
    return hmac.new(bytes.fromhex(secret_hex), head + key + payload, hashlib.sha256).digest()


class Signer:
    """Signs messages as one process of the job would (Note [PS authentication]): a fixed
    random process id and increasing nonces, in run `run_id` (Note [PS runs]; 0: before
    registering, or a process that never joined the run)."""

    def __init__(self, secret_hex, incarnation=None, run_id=0):
        self.secret = secret_hex
        self.job = job_id(secret_hex)
        self.run_id = run_id
        self.incarnation = incarnation if incarnation is not None else struct.unpack("<Q", os.urandom(8))[0]
        self.nonce = 0

    def message(self, command, key=b"", payload=b"", nonce=None, **fields):
        """[header, key, payload, mac] with this process's identity and the next nonce."""
        if nonce is None:
            self.nonce += 1
            nonce = self.nonce
        head = header(command, key, len(payload), job_id=self.job, run_id=self.run_id,
                      incarnation=self.incarnation, nonce=nonce, **fields)
        return [head, key, payload, mac(self.secret, head, key, payload)]

    def register(self, scheduler_port, role=WORKER, address=b""):
        """Joins a running job's run as a node of `role` the way core/kvstore/van.cc does: a
        register with a fresh challenge, then the scheduler's acknowledgement, whose MAC and
        echoed challenge are checked. Returns (socket to the scheduler, rank, server addresses,
        the frames of the acknowledgement); sets self.run_id."""
        sock = connect_dealer(scheduler_port)
        challenge = struct.unpack("<Q", os.urandom(8))[0] | 1
        send_message(sock, self.message(CMD_REGISTER, b"", address, request_id=challenge, dtype=role, flags=0,
                                        sender=-1, sender_role=role, recipient_role=SCHEDULER, recipient_rank=0))
        while True:
            frames = recv_message(sock)
            head = HEADER.unpack(frames[0])
            if head[F_COMMAND] == CMD_REGISTER_ACK:
                break
        if not hmac.compare_digest(frames[3], mac(self.secret, frames[0], frames[1], frames[2])):
            raise ConnectionError("the registration reply's MAC is wrong")
        if head[F_REQUEST_ID] != challenge or head[F_RUN_ID] == 0:
            raise ConnectionError("the registration reply does not answer our challenge")
        self.run_id = head[F_RUN_ID]
        servers = [line for line in frames[2].decode().split("\n") if line]
        return sock, head[F_ARG], servers, frames
