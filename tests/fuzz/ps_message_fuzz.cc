// Fuzz target: the KVStore wire decoder (ps::ReceiveMessage, Note [PS wire
// format] in core/kvstore/ps_message.h) and a server's request handling
// (ps::ServerHandler) behind it: what a peer on the network can send a
// parameter server. The frames travel through a real ZeroMQ inproc socket
// pair, as a server's ROUTER socket hands them over (identity frame first).
//
// Input layout: byte 0 picks the job's worker count (1 + b % 4); then frames,
// each a 2-byte little-endian word (low 15 bits: length, top bit: another
// frame of the same message follows) and that many bytes (fewer at the end
// of the input). At most 64 frames.
#include <zmq.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/kvstore/ps_message.h"
#include "core/kvstore/server.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr int kMaxFrames = 64;
constexpr uint64_t kMaxPayload = 1 << 20;

struct Pair {
  void* ctx = zmq_ctx_new();
  void* tx = zmq_socket(ctx, ZMQ_PAIR);
  void* rx = zmq_socket(ctx, ZMQ_PAIR);
  Pair() {
    int hwm = 0;  // no limit: every frame of an input is queued before any is read
    zmq_setsockopt(tx, ZMQ_SNDHWM, &hwm, sizeof(hwm));
    zmq_setsockopt(rx, ZMQ_RCVHWM, &hwm, sizeof(hwm));
    FUZZ_CHECK(zmq_bind(rx, "inproc://ps_message_fuzz") == 0 && zmq_connect(tx, "inproc://ps_message_fuzz") == 0,
               "inproc pair: %s", zmq_strerror(zmq_errno()));
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Pair* pair = new Pair();  // one socket pair for the process (never freed: libFuzzer exits)
  if (size == 0) return 0;
  int workers = 1 + data[0] % 4;
  size_t pos = 1;
  int frames = 0, messages = 0;
  while (pos + 2 <= size && frames < kMaxFrames) {
    unsigned word = data[pos] | (data[pos + 1] << 8);
    pos += 2;
    size_t len = std::min<size_t>(word & 0x7fff, size - pos);
    bool more = (word & 0x8000) != 0 && pos + len + 2 <= size && frames + 1 < kMaxFrames;
    FUZZ_CHECK(zmq_send(pair->tx, data + pos, len, more ? ZMQ_SNDMORE : 0) == static_cast<int>(len), "send: %s",
               zmq_strerror(zmq_errno()));
    pos += len;
    ++frames;
    if (!more) ++messages;
  }
  std::vector<weft::ps::Message> replies;
  weft::ps::ServerHandler handler(workers, [&](weft::ps::Message&& m) { replies.push_back(std::move(m)); });
  for (int i = 0; i < messages; ++i) {
    zmq_pollitem_t item{pair->rx, 0, ZMQ_POLLIN, 0};
    FUZZ_CHECK(zmq_poll(&item, 1, 1000) == 1, "message %d of %d never arrived", i, messages);
    weft::ps::Message m;
    std::string why;
    if (weft::ps::ReceiveMessage(pair->rx, true, kMaxPayload, &m, &why)) {
      FUZZ_CHECK(m.key.size() == m.head.key_len && m.payload.size() == m.head.payload_bytes,
                 "a message accepted with sizes other than its header's");
      handler.Handle(std::move(m));
    } else {
      FUZZ_CHECK(!why.empty(), "message %d was consumed without a reason", i);
    }
  }
  return 0;
}
