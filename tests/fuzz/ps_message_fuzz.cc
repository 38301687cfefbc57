// Fuzz target: the KVStore wire decoder (ps::ReceiveMessage, Note [PS wire
// format] in core/kvstore/ps_message.h) and a server's request handling
// (ps::ServerHandler) behind it: what a peer on the network can send a
// parameter server. The frames travel through a real ZeroMQ inproc socket
// pair, as a server's ROUTER socket hands them over (identity frame first).
//
// Input layout: byte 0 picks the job's worker count (1 + (b & 3)) and, with
// its top bit set, has the harness sign the messages as a worker of the job
// would (Note [PS authentication] in core/kvstore/ps_auth.h: a message of
// identity + 96-byte header + key + payload gets its job id, run id, process
// id, nonce and sender role filled in and a valid MAC frame appended; worker
// and server joined one run as Note [PS runs] says), so the
// fuzzer reaches the checks and the handler behind the MAC; without it the
// frames go as they are (what a stranger without the secret can send). Then
// frames, each a 2-byte little-endian word (low 15 bits: length, top bit:
// another frame of the same message follows) and that many bytes (fewer at
// the end of the input). At most 64 frames.
#include <zmq.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/kvstore/ps_message.h"
#include "core/kvstore/server.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr int kMaxFrames = 64;
constexpr uint64_t kMaxPayload = 1 << 20;
// The fuzz job's secret (any 32 bytes; the receiving server has the same).
const std::string kSecret(32, '\x5a');

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

// Receives `messages` messages from rx as a server of a job of `workers`
// workers does, and hands each accepted one to a fresh ServerHandler.
void Serve(int workers, int messages, void* rx, weft::ps::Auth* server) {
  std::vector<weft::ps::Message> replies;
  weft::ps::ServerHandler handler(workers, [&](weft::ps::Message&& m) { replies.push_back(std::move(m)); });
  for (int i = 0; i < messages; ++i) {
    zmq_pollitem_t item{rx, 0, ZMQ_POLLIN, 0};
    int ready;
    // libFuzzer's -timeout watchdog is a SIGALRM every second: a poll it
    // interrupts (EINTR) is asked again, not a message that never came.
    while ((ready = zmq_poll(&item, 1, 1000)) < 0 && zmq_errno() == EINTR) {
    }
    FUZZ_CHECK(ready == 1, "message %d of %d never arrived (%s)", i, messages,
               ready < 0 ? zmq_strerror(zmq_errno()) : "timed out");
    weft::ps::Message m;
    std::string why;
    const uint32_t from = weft::ps::RoleBit(weft::ps::Role::kWorker);
    if (weft::ps::ReceiveMessage(rx, true, kMaxPayload, server, from, &m, &why)) {
      FUZZ_CHECK(m.key.size() == m.head.key_len && m.payload.size() == m.head.payload_bytes,
                 "a message accepted with sizes other than its header's");
      handler.Handle(std::move(m));
    } else {
      FUZZ_CHECK(!why.empty(), "message %d was consumed without a reason", i);
    }
  }
}

// A node of the fuzz job's one run: registered through the scheduler's
// acknowledgement of its challenge, as van.cc registers (Note [PS runs]).
weft::ps::Auth* Joined(weft::ps::Role role) {
  using weft::ps::Role;
  static weft::ps::Auth* scheduler = new weft::ps::Auth(kSecret, Role::kScheduler);
  auto* node = new weft::ps::Auth(kSecret, role);
  weft::ps::Header ack;
  ack.command = static_cast<uint16_t>(weft::ps::Command::kRegisterAck);
  ack.request_id = node->NewChallenge();
  ack.recipient_role = static_cast<uint8_t>(role);
  unsigned char mac[weft::ps::kMacBytes];
  scheduler->Sign(&ack, "", "", 0, mac);
  std::string why = node->Verify(ack, "", "", mac, sizeof(mac), weft::ps::RoleBit(Role::kScheduler));
  FUZZ_CHECK(why.empty(), "joining the fuzz job's run: %s", why.c_str());
  return node;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using weft::ps::Auth;
  using weft::ps::Role;
  static Pair* pair = new Pair();  // one socket pair for the process (never freed: libFuzzer exits)
  // One sender and one receiver for the process: nonces keep increasing across inputs.
  static Auth* worker = Joined(Role::kWorker);
  static Auth* server = Joined(Role::kServer);
  if (size == 0) return 0;
  int workers = 1 + (data[0] & 3);
  bool sign = (data[0] & 0x80) != 0;
  size_t pos = 1;
  int frames = 0, messages = 0;
  std::vector<std::string> message;
  auto send = [&] {
    if (sign && message.size() == 4 && message[1].size() == sizeof(weft::ps::Header)) {
      weft::ps::Header h;
      std::memcpy(&h, message[1].data(), sizeof(h));
      unsigned char mac[weft::ps::kMacBytes];
      worker->Sign(&h, message[2], message[3].data(), message[3].size(), mac);
      message[1].assign(reinterpret_cast<const char*>(&h), sizeof(h));
      message.emplace_back(reinterpret_cast<const char*>(mac), sizeof(mac));
    }
    for (size_t i = 0; i < message.size(); ++i) {
      const std::string& f = message[i];
      FUZZ_CHECK(zmq_send(pair->tx, f.data(), f.size(), i + 1 < message.size() ? ZMQ_SNDMORE : 0) ==
                     static_cast<int>(f.size()),
                 "send: %s", zmq_strerror(zmq_errno()));
    }
    message.clear();
    ++messages;
  };
  while (pos + 2 <= size && frames < kMaxFrames) {
    unsigned word = data[pos] | (data[pos + 1] << 8);
    pos += 2;
    size_t len = std::min<size_t>(word & 0x7fff, size - pos);
    bool more = (word & 0x8000) != 0 && pos + len + 2 <= size && frames + 1 < kMaxFrames;
    message.emplace_back(reinterpret_cast<const char*>(data + pos), len);
    pos += len;
    ++frames;
    if (!more) send();
  }
  Serve(workers, messages, pair->rx, server);
  // The handler's arrays are freed through the engine: wait, so this input's
  // mallocs and frees balance and libFuzzer's leak check runs only after an
  // input that really leaks.
  weft_wait_all();
  return 0;
}
