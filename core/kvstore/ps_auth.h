// Who may talk to a distributed job's nodes (Note [PS authentication]).
//
// Note [PS authentication]
//   Every message between the nodes of a job carries, in its header, the job
//   id, the run id, the sender's role and rank, a random 64-bit id of the
//   sending process (its incarnation), a nonce that this process increments
//   with every message it sends, and the role and rank of the node it is
//   meant for; a fourth frame holds an HMAC-SHA256 over the header, key and
//   payload frames keyed with the job's secret, WEFT_PS_SECRET (at least 32
//   hex digits). python -m weft.launch draws a fresh 32-byte secret for each
//   job and hands it to every process it starts (through the environment,
//   never a command line; on Kubernetes a Secret, deploy/k8s/weft-job.yaml).
//   The job id is a hash of the secret, so a node of another job is named as
//   such in the log. The run id is drawn at random by the scheduler when it
//   starts (Note [PS runs]).
//   A receiver checks, in this order and before any handler sees the message:
//   the frames' structure (Note [PS wire format]), the job id, the MAC
//   (constant-time compare), the run (Note [PS runs]), that the sender's role
//   may send on that socket (workers to servers, servers to workers,
//   scheduler to nodes, nodes to the scheduler), that the recipient is this
//   node, and that the nonce is above the last one accepted from that
//   process. A message failing any check is dropped and logged
//   (RejectionLog: a few lines per 10 s, naming the peer's address, then a
//   count), so a process without the secret -- or one that replays a
//   captured message, from this run or an earlier one, or sends one captured
//   on the way to another node -- can neither pull, push, register nor set an
//   optimizer, and no per-key state is ever created for it. The nonce table
//   holds one entry per authenticated process of the run, so it is bounded by
//   the job's size.
//   The MAC costs one SHA-256 pass over each message (about 1.5-2 GB/s a core
//   with SHA extensions), small next to the copies a push already makes.
//   Why an HMAC rather than ZeroMQ's CURVE: CURVE would need a key pair per
//   process and a ZAP handler to check them, and authenticates a connection,
//   not a message: it says nothing about the rank or role a peer claims, and
//   the tests' raw-ZMTP clients could not speak it. Secrecy of the values is
//   not the goal (run jobs on a trusted network or a VPN for that).
//   Without WEFT_PS_SECRET a dist store, server or scheduler refuses to start
//   and says how to get one; the nodes listen only on the interface they
//   advertise (WEFT_NODE_HOST, the route to the scheduler, or loopback), not
//   on every interface.
//
// Note [PS runs]
//   The secret outlives a job (a Kubernetes Secret, one set by hand, a job
//   started again after a failure), and every process starts with an empty
//   nonce table, so the nonce alone cannot tell a message of this run from
//   one captured in an earlier run with the same secret: issue 35 point 3
//   found a push recorded in run A acked by the server of run B, whose worker
//   then pulled the replayed value. So every MAC also covers a run id:
//   - the scheduler draws 64 random bits (never 0) when it starts, prints
//     them ("weft kvstore scheduler: run <hex>"; the id is no secret, it is in
//     every header) and puts them in every message it sends;
//   - a node registers with run id 0 and a fresh random challenge in the
//     request id (Auth::NewChallenge); the scheduler's RegisterAck, MACed,
//     echoes the challenge and carries the run id. A node takes its run id
//     and the scheduler's incarnation only from a RegisterAck that answers
//     its own challenge, so an acknowledgement captured in another run (or
//     sent to another node) cannot put it into the wrong run;
//   - from then on every message must carry that run id ("from another
//     run"), and every message from the scheduler its incarnation (a
//     restarted scheduler is a new run: "from a scheduler process other
//     than the one this node registered with"). Before its RegisterAck a
//     node accepts nothing else ("before this node joined a run") but a
//     kAbort echoing its challenge (the registrations timed out), and the
//     scheduler accepts a register only with run id 0 and anything else only
//     with its own run id. The scheduler also pins the incarnation each node
//     registered with: a message from a registered node's connection signed
//     by another process (one restarted under the same name) is refused.
//   A restarted node is a new process: it cannot join a run whose ranks are
//   assigned (the scheduler refuses late registrations), and a restarted
//   job is a new run, so no message from before a restart is accepted.
//   Not covered: a register captured in one run and replayed to a scheduler
//   of a later run before its ranks are assigned takes a node's place; the
//   replayer cannot sign anything, so the job only stops (the place never
//   heartbeats, Note [Liveness]) -- a denial of service, never a wrong value.
//   Closing it needs a second round trip (the scheduler's own challenge,
//   answered before the place counts).
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/kvstore/ps_config.h"

namespace weft {
namespace ps {

struct Header;

constexpr size_t kMacBytes = 32;
constexpr uint32_t RoleBit(Role r) { return 1u << static_cast<int>(r); }

class Auth {
 public:
  // secret: the raw bytes (Config::secret); self: this node's role.
  Auth(const std::string& secret, Role self);
  ~Auth();
  Auth(const Auth&) = delete;
  Auth& operator=(const Auth&) = delete;

  // Once the scheduler has assigned it (scheduler: 0 from the start).
  void set_rank(int rank) { rank_ = rank; }
  uint64_t job_id() const { return job_id_; }
  // The scheduler's from the start; a node's once a RegisterAck answered its
  // challenge (Note [PS runs]); 0 before.
  uint64_t run_id() const { return run_id_; }
  uint64_t incarnation() const { return incarnation_; }
  // Node: draws the challenge its register message carries in request_id;
  // only a RegisterAck echoing it is accepted before this node has a run.
  uint64_t NewChallenge();

  // Fills h's job id, run id, sender role, incarnation and nonce
  // (h->recipient_* are the caller's) and writes the MAC over header, key and payload into mac.
  void Sign(Header* h, const std::string& key, const void* payload, size_t payload_bytes,
            unsigned char mac[kMacBytes]);

  // "" when the message is authentic, of this run, meant for this node and
  // new; else why not. `from`: the roles that may send on the socket it came
  // from (RoleBit). A node's first accepted message is the RegisterAck
  // answering its challenge, which gives it its run (Note [PS runs]).
  std::string Verify(const Header& h, const void* key, const void* payload, const void* mac, size_t mac_bytes,
                     uint32_t from);

 private:
  void Mac(const Header& h, const void* key, size_t key_len, const void* payload, size_t payload_bytes,
           unsigned char out[kMacBytes]) const;
  // "" when h belongs to this run; *join: h is the RegisterAck that gives
  // this node its run. Called with mu_ held.
  std::string CheckRun(const Header& h, bool* join) const;

  void* mac_template_ = nullptr;  // EVP_MAC_CTX keyed with the secret, duplicated per message
  Role role_;
  std::atomic<int> rank_{-1};
  uint64_t job_id_ = 0;
  uint64_t incarnation_ = 0;
  std::atomic<uint64_t> next_nonce_{1};
  std::atomic<uint64_t> run_id_{0};
  std::mutex mu_;
  uint64_t challenge_ = 0;              // node: of its register message
  uint64_t scheduler_incarnation_ = 0;  // node: of the scheduler it registered with
  std::unordered_map<uint64_t, uint64_t> last_nonce_;  // incarnation -> highest nonce accepted
};

// 16 hex digits: how logs name job, run and process ids.
std::string Hex64(uint64_t v);

// Turns WEFT_PS_SECRET's hex text into bytes; throws kInvalidArgument saying
// how to get a secret when it is missing or malformed.
std::string DecodeSecret(const char* hex);

// Rejected messages, logged to stderr without flooding it: the first few of
// every 10 s in full (naming the peer), then how many more there were.
class RejectionLog {
 public:
  explicit RejectionLog(std::string who) : who_(std::move(who)) {}
  void Note(const std::string& peer, const std::string& why);
  uint64_t total() const { return total_; }

 private:
  std::string who_;
  std::chrono::steady_clock::time_point window_start_{};
  int in_window_ = 0;
  uint64_t suppressed_ = 0;
  uint64_t total_ = 0;
};

}  // namespace ps
}  // namespace weft
