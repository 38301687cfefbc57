// Messages between the nodes of a distributed job, and their framing on
// ZeroMQ (Note [PS wire format]).
//
// Note [PS wire format]
//   One ZeroMQ multipart message = four frames (ROUTER sockets add the peer
//   identity in front):
//     1. Header: 96 bytes, little-endian fields as in struct Header below;
//        magic "WEFT" (0x54464557), version 3 (3 added the run id, Note
//        [PS runs] in core/kvstore/ps_auth.h; a version-2 peer is refused
//        naming both versions).
//     2. key: key_len bytes (UTF-8; at most kMaxKeyBytes).
//     3. payload: payload_bytes bytes (array bytes, text, or empty).
//     4. MAC: 32 bytes, HMAC-SHA256 of frames 1-3 with the job's secret
//        (Note [PS authentication] in core/kvstore/ps_auth.h).
//   A receiver checks every field against the frames it got (frame count and
//   sizes, magic, version, command, key length, payload size against
//   WEFT_PS_MAX_MESSAGE_BYTES), then the authentication, and drops a message
//   that does not fit, logging why: garbage and strangers never reach a
//   handler and never stop a node.
#pragma once
#include <zmq.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "core/kvstore/ps_auth.h"
#include "core/kvstore/ps_config.h"

namespace weft {
namespace ps {

constexpr uint32_t kMagic = 0x54464557u;  // "WEFT" read as little-endian bytes
constexpr uint16_t kWireVersion = 3;
constexpr uint32_t kMaxKeyBytes = 4096;
constexpr uint32_t kFlagSync = 1;

enum class Command : uint16_t {
  kRegister = 1,      // node -> scheduler: arg = role, request_id = challenge, payload = advertised address
  kRegisterAck,       // scheduler -> node: arg = rank, request_id = the challenge, run_id = the run,
                      // payload = server addresses, one a line
  kHeartbeat,         // both ways
  kBarrier,           // worker -> scheduler
  kBarrierAck,        // scheduler -> worker
  kFinalize,          // worker -> scheduler: this worker is done
  kFinalizeAck,       // scheduler -> worker: every worker is done
  kAbort,             // scheduler -> node: payload = why; the node exits with an error
  kExit,              // scheduler -> server: the job is over
  kInit,              // worker -> server: key part's first value
  kPush,              // worker -> server
  kPull,              // worker -> server
  kSetOptimizer,      // worker -> server: payload = optimizer JSON
  kAck,               // server -> worker: request done
  kPullReply,         // server -> worker: payload = the value
  kError,             // server -> worker: payload = message
  kLast = kError,
};
const char* CommandName(Command c);

#pragma pack(push, 1)
struct Header {
  uint32_t magic = kMagic;
  uint16_t version = kWireVersion;
  uint16_t command = 0;
  uint64_t request_id = 0;
  int32_t sender = -1;      // sender's rank within its role (-1 before registration)
  int32_t arg = 0;          // dtype flag of the payload, role or rank (see Command)
  uint32_t key_len = 0;
  uint32_t flags = 0;       // kPush: kFlagSync when the sender is a dist_sync worker
  uint64_t payload_bytes = 0;
  uint64_t offset = 0;      // first element of this part within the whole array
  uint64_t total = 0;       // elements of the whole array
  // Authentication (Note [PS authentication]); filled by SendMessage except recipient_*.
  uint64_t job_id = 0;
  uint64_t run_id = 0;       // the scheduler's random id of this run (Note [PS runs]); 0: not in one yet
  uint64_t incarnation = 0;  // random id of the sending process
  uint64_t nonce = 0;        // increases with every message that process sends
  uint8_t sender_role = 0;   // Role
  uint8_t recipient_role = 0;
  uint16_t reserved = 0;
  int32_t recipient_rank = -1;  // -1: not known to the sender yet (registration)
};
#pragma pack(pop)
static_assert(sizeof(Header) == 96, "the wire header is 96 bytes");

// A ZeroMQ frame owned by RAII (the payload is kept as ZeroMQ delivered it:
// no copy between the socket and the array).
class Frame {
 public:
  Frame() { zmq_msg_init(&msg_); }
  explicit Frame(size_t n) { zmq_msg_init_size(&msg_, n); }
  Frame(const void* data, size_t n) {
    zmq_msg_init_size(&msg_, n);
    if (n) std::memcpy(zmq_msg_data(&msg_), data, n);
  }
  explicit Frame(const std::string& s) : Frame(s.data(), s.size()) {}
  ~Frame() { zmq_msg_close(&msg_); }
  Frame(Frame&& o) noexcept {
    zmq_msg_init(&msg_);
    zmq_msg_move(&msg_, &o.msg_);
  }
  Frame& operator=(Frame&& o) noexcept {
    if (this != &o) zmq_msg_move(&msg_, &o.msg_);
    return *this;
  }
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;
  // Borrows memory that must stay valid until ZeroMQ has sent it (the sender
  // waits for the reply, which proves that: init and multi-part transfers).
  static Frame Borrow(void* data, size_t n) {
    Frame f;
    zmq_msg_close(&f.msg_);
    zmq_msg_init_data(&f.msg_, data, n, [](void*, void*) {}, nullptr);
    return f;
  }

  // Another frame over the same bytes (ZeroMQ reference-counts the buffer),
  // so one value can be sent to several peers without a copy each.
  Frame Share() const {
    Frame f;
    zmq_msg_copy(&f.msg_, const_cast<zmq_msg_t*>(&msg_));
    return f;
  }

  const char* data() const { return static_cast<const char*>(zmq_msg_data(const_cast<zmq_msg_t*>(&msg_))); }
  char* data() { return static_cast<char*>(zmq_msg_data(&msg_)); }
  size_t size() const { return zmq_msg_size(&msg_); }
  std::string str() const { return std::string(data(), size()); }
  zmq_msg_t* raw() { return &msg_; }

 private:
  zmq_msg_t msg_;
};

struct Message {
  Header head;
  std::string key;
  Frame payload;
  std::string identity;  // the peer, for replies through a ROUTER socket
  std::string peer;      // the peer's address as ZeroMQ saw it (for logs)

  Command command() const { return static_cast<Command>(head.command); }
};

// Builds a message with a copied payload.
Message MakeMessage(Command c, const std::string& key = "", const std::string& payload = "");

// Addresses m to a node (the recipient fields the receiver checks).
inline void AddressTo(Message* m, Role role, int rank) {
  m->head.recipient_role = static_cast<uint8_t>(role);
  m->head.recipient_rank = rank;
}

// Signs m with auth and sends it on sock (with the identity frame first when
// `routed`); returns false when ZeroMQ refused (the peer is gone), never throws.
bool SendMessage(void* sock, Message&& m, bool routed, Auth* auth);

// Receives one multipart message. Returns true with *m filled for a valid,
// authentic message from a node whose role is in `from` (RoleBit); false with *why set when the
// frames do not form one or fail auth->Verify (the frames are consumed either
// way; m->peer names the sender), or when nothing was there (why empty).
bool ReceiveMessage(void* sock, bool routed, uint64_t max_payload, Auth* auth, uint32_t from, Message* m,
                    std::string* why);

}  // namespace ps
}  // namespace weft
