"""Just enough of ZMTP 3.0 (the ZeroMQ wire protocol, rfc.zeromq.org/spec/23)
to talk to a weft server's ROUTER socket from a plain socket: the tests send
it malformed and oversized messages without needing pyzmq."""
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


# core/kvstore/ps_message.h, struct Header (56 bytes, little-endian)
HEADER = struct.Struct("<IHHQiiIIQQQ")
MAGIC = 0x54464557
CMD_PUSH, CMD_PULL, CMD_ERROR = 11, 12, 16


def header(command, key, payload_bytes, magic=MAGIC, version=1, sender=0, dtype=0, offset=0, total=0):
    return HEADER.pack(magic, version, command, 1, sender, dtype, len(key), 1, payload_bytes, offset, total)
