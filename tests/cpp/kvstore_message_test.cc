// The PS wire format: valid messages round-trip, and every kind of malformed
// or unauthenticated input (Note [PS authentication]), or input of another
// run (Note [PS runs]), is rejected with a reason instead of reaching a
// handler.
#include <gtest/gtest.h>
#include <zmq.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/kvstore/ps_message.h"

namespace weft {
namespace ps {
namespace {

// The scheduler's acknowledgement of a registration with `challenge`, as
// scheduler.cc sends it to a node of `role`: header and MAC.
std::pair<Header, std::string> RegisterAck(Auth* scheduler, Role role, uint64_t challenge) {
  Header h;
  h.command = static_cast<uint16_t>(Command::kRegisterAck);
  h.request_id = challenge;
  h.recipient_role = static_cast<uint8_t>(role);
  unsigned char mac[kMacBytes];
  scheduler->Sign(&h, "", "", 0, mac);
  return {h, std::string(reinterpret_cast<const char*>(mac), kMacBytes)};
}

// Puts `node` into `scheduler`'s run the way a node registers (Note [PS runs]).
void Join(Auth* scheduler, Auth* node, Role role) {
  auto ack = RegisterAck(scheduler, role, node->NewChallenge());
  ASSERT_EQ(node->Verify(ack.first, "", "", ack.second.data(), ack.second.size(), RoleBit(Role::kScheduler)), "");
  ASSERT_EQ(node->run_id(), scheduler->run_id());
}

class WireTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Join(&scheduler_, &worker_, Role::kWorker);
    Join(&scheduler_, &server_, Role::kServer);
    ctx_ = zmq_ctx_new();
    in_ = zmq_socket(ctx_, ZMQ_PAIR);
    out_ = zmq_socket(ctx_, ZMQ_PAIR);
    ASSERT_EQ(zmq_bind(in_, "inproc://wire"), 0);
    ASSERT_EQ(zmq_connect(out_, "inproc://wire"), 0);
  }
  void TearDown() override {
    zmq_close(in_);
    zmq_close(out_);
    zmq_ctx_term(ctx_);
  }
  void SendFrames(const std::vector<std::string>& frames) {
    for (size_t i = 0; i < frames.size(); ++i) {
      zmq_send(out_, frames[i].data(), frames[i].size(), i + 1 < frames.size() ? ZMQ_SNDMORE : 0);
    }
  }
  // Receives one message (blocking until it is there); returns the reason it was rejected ("" = accepted).
  std::string Receive(Message* m, uint64_t limit = 1 << 20) {
    zmq_pollitem_t item{in_, 0, ZMQ_POLLIN, 0};
    zmq_poll(&item, 1, 2000);
    std::string why;
    bool ok = ReceiveMessage(in_, false, limit, &server_, RoleBit(Role::kWorker), m, &why);
    EXPECT_TRUE(ok || !why.empty()) << "nothing was received";
    return ok ? "" : why;
  }
  static std::string HeaderBytes(const Header& h) { return std::string(reinterpret_cast<const char*>(&h), sizeof(h)); }

  // A message as the worker sends it, addressed to server 0.
  bool Send(Message&& m, Auth* auth = nullptr) {
    AddressTo(&m, Role::kServer, 0);
    return SendMessage(out_, std::move(m), false, auth ? auth : &worker_);
  }

  const std::string secret_ = std::string(32, '\x11');
  Auth scheduler_{secret_, Role::kScheduler};
  Auth worker_{secret_, Role::kWorker};
  Auth server_{secret_, Role::kServer};
  void* ctx_ = nullptr;
  void* in_ = nullptr;
  void* out_ = nullptr;
};

TEST_F(WireTest, ValidMessageRoundTrips) {
  Message m = MakeMessage(Command::kPush, "layer0_weight", std::string("\x01\x02\x03\x04", 4));
  m.head.request_id = 42;
  m.head.sender = 3;
  m.head.offset = 7;
  m.head.total = 11;
  ASSERT_TRUE(Send(std::move(m)));
  Message got;
  ASSERT_EQ(Receive(&got), "");
  EXPECT_EQ(got.command(), Command::kPush);
  EXPECT_EQ(got.key, "layer0_weight");
  EXPECT_EQ(got.payload.str(), std::string("\x01\x02\x03\x04", 4));
  EXPECT_EQ(got.head.request_id, 42u);
  EXPECT_EQ(got.head.sender, 3);
  EXPECT_EQ(got.head.offset, 7u);
  EXPECT_EQ(got.head.total, 11u);
}

TEST_F(WireTest, MalformedMessagesAreRejectedWithAReason) {
  Header good;
  good.command = static_cast<uint16_t>(Command::kPull);
  good.key_len = 1;
  Message m;

  const std::string mac(kMacBytes, '\0');
  SendFrames({"garbage"});
  EXPECT_NE(Receive(&m).find("expected 4 frames"), std::string::npos);

  SendFrames({"short", "k", "", mac});
  EXPECT_NE(Receive(&m).find("header frame of 5 bytes"), std::string::npos);

  Header bad = good;
  bad.magic = 0xdeadbeef;
  SendFrames({HeaderBytes(bad), "k", "", mac});
  EXPECT_NE(Receive(&m).find("bad magic"), std::string::npos);

  bad = good;
  bad.version = 9;
  SendFrames({HeaderBytes(bad), "k", "", mac});
  EXPECT_NE(Receive(&m).find("wire version 9"), std::string::npos);

  bad = good;
  bad.command = 999;
  SendFrames({HeaderBytes(bad), "k", "", mac});
  EXPECT_NE(Receive(&m).find("unknown command 999"), std::string::npos);

  bad = good;
  bad.key_len = 5;
  SendFrames({HeaderBytes(bad), "k", "", mac});
  EXPECT_NE(Receive(&m).find("key length 5"), std::string::npos);

  bad = good;
  bad.payload_bytes = uint64_t{1} << 40;
  SendFrames({HeaderBytes(bad), "k", "x", mac});
  EXPECT_NE(Receive(&m).find("exceeds the limit"), std::string::npos);

  bad = good;
  bad.payload_bytes = 10;
  SendFrames({HeaderBytes(bad), "k", "x", mac});
  EXPECT_NE(Receive(&m).find("announces 10 payload bytes"), std::string::npos);

  // well-formed but without the job's MAC (a stranger): refused before anything reads it
  good.job_id = server_.job_id();
  SendFrames({HeaderBytes(good), "k", "", mac});
  EXPECT_NE(Receive(&m).find("bad MAC"), std::string::npos);

  // and the socket still works afterwards
  ASSERT_TRUE(Send(MakeMessage(Command::kPull, "k")));
  EXPECT_EQ(Receive(&m), "");
  EXPECT_EQ(m.key, "k");
}

// Captures the frames the worker would send, so a test can alter or replay them.
std::vector<std::string> Signed(Auth* auth, Message&& m) {
  void* ctx = zmq_ctx_new();
  void* rx = zmq_socket(ctx, ZMQ_PAIR);
  void* tx = zmq_socket(ctx, ZMQ_PAIR);
  zmq_bind(rx, "inproc://capture");
  zmq_connect(tx, "inproc://capture");
  SendMessage(tx, std::move(m), false, auth);
  std::vector<std::string> frames;
  int more = 1;
  while (more) {
    zmq_msg_t f;
    zmq_msg_init(&f);
    zmq_msg_recv(&f, rx, 0);
    frames.emplace_back(static_cast<const char*>(zmq_msg_data(&f)), zmq_msg_size(&f));
    more = zmq_msg_more(&f);
    zmq_msg_close(&f);
  }
  zmq_close(rx);
  zmq_close(tx);
  zmq_ctx_term(ctx);
  return frames;
}

TEST_F(WireTest, UnauthenticatedReplayedOrMisdirectedMessagesAreRejected) {
  Message m;
  // another job's secret
  Auth stranger(std::string(32, '\x22'), Role::kWorker);
  ASSERT_TRUE(Send(MakeMessage(Command::kPull, "k"), &stranger));
  EXPECT_NE(Receive(&m).find("another job"), std::string::npos);

  // the right job id but a forged MAC, and a genuine message altered on the way
  Message pull = MakeMessage(Command::kPush, "k", "abcd");
  AddressTo(&pull, Role::kServer, 0);
  std::vector<std::string> frames = Signed(&worker_, std::move(pull));
  ASSERT_EQ(frames.size(), 4u);
  std::vector<std::string> altered = frames;
  altered[2] = "abce";
  SendFrames(altered);
  EXPECT_NE(Receive(&m).find("bad MAC"), std::string::npos);
  altered = frames;
  altered[0][offsetof(Header, sender)] ^= 1;  // claims another rank
  SendFrames(altered);
  EXPECT_NE(Receive(&m).find("bad MAC"), std::string::npos);

  // the genuine one is accepted once; the same bytes again are a replay
  SendFrames(frames);
  EXPECT_EQ(Receive(&m), "");
  SendFrames(frames);
  EXPECT_NE(Receive(&m).find("replayed message"), std::string::npos);

  // a genuine message meant for server 1, or sent by a server, is not for this socket
  server_.set_rank(0);
  Message other = MakeMessage(Command::kPull, "k");
  AddressTo(&other, Role::kServer, 1);
  ASSERT_TRUE(SendMessage(out_, std::move(other), false, &worker_));
  EXPECT_NE(Receive(&m).find("meant for server 1"), std::string::npos);
  Auth peer_server(secret_, Role::kServer);
  Join(&scheduler_, &peer_server, Role::kServer);
  ASSERT_TRUE(Send(MakeMessage(Command::kPull, "k"), &peer_server));
  EXPECT_NE(Receive(&m).find("a server may not send"), std::string::npos);

  // later genuine messages still pass
  ASSERT_TRUE(Send(MakeMessage(Command::kPull, "k")));
  EXPECT_EQ(Receive(&m), "");
}

TEST_F(WireTest, MessagesOfAnotherRunAreRefused) {
  // Run A with the same secret (a secret that outlives a job): its worker's
  // push, genuine there, is refused here, and so is every later one.
  Auth scheduler_a(secret_, Role::kScheduler), worker_a(secret_, Role::kWorker);
  ASSERT_NE(scheduler_a.run_id(), scheduler_.run_id());
  Join(&scheduler_a, &worker_a, Role::kWorker);
  Message m;
  ASSERT_TRUE(Send(MakeMessage(Command::kPush, "k", "abcd"), &worker_a));
  std::string why = Receive(&m);
  EXPECT_NE(why.find("message from another run (run id " + Hex64(scheduler_a.run_id()) + ", this run's is " +
                     Hex64(scheduler_.run_id()) + ")"),
            std::string::npos)
      << why;
  ASSERT_TRUE(Send(MakeMessage(Command::kPull, "k"), &worker_a));
  EXPECT_NE(Receive(&m).find("another run"), std::string::npos);
  // A process that never joined a run (restarted, say) is refused as well.
  Auth restarted(secret_, Role::kWorker);
  ASSERT_TRUE(Send(MakeMessage(Command::kPull, "k"), &restarted));
  EXPECT_NE(Receive(&m).find("pull message from a process outside this run"), std::string::npos);
  // This run's worker is not disturbed.
  ASSERT_TRUE(Send(MakeMessage(Command::kPull, "k")));
  EXPECT_EQ(Receive(&m), "");
}

TEST(PsRun, ANodeJoinsOnlyTheRunThatAnswersItsChallenge) {
  const std::string secret(32, '\x33');
  Auth sched_a(secret, Role::kScheduler), sched_b(secret, Role::kScheduler), node(secret, Role::kServer);
  const uint32_t from_sched = RoleBit(Role::kScheduler);
  Auth worker(secret, Role::kWorker);
  Join(&sched_b, &worker, Role::kWorker);

  // Before registering: nothing but an acknowledgement of its own challenge.
  Header push;
  push.command = static_cast<uint16_t>(Command::kPush);
  push.recipient_role = static_cast<uint8_t>(Role::kServer);
  unsigned char mac[kMacBytes];
  worker.Sign(&push, "", "", 0, mac);
  EXPECT_NE(node.Verify(push, "", "", mac, kMacBytes, RoleBit(Role::kWorker)).find("before this node joined a run"),
            std::string::npos);

  uint64_t challenge = node.NewChallenge();
  // A captured acknowledgement (of another registration, in run A) does not answer it.
  auto stale = RegisterAck(&sched_a, Role::kServer, challenge + 1);
  EXPECT_NE(node.Verify(stale.first, "", "", stale.second.data(), kMacBytes, from_sched)
                .find("does not answer this node's challenge"),
            std::string::npos);
  EXPECT_EQ(node.run_id(), 0u);
  auto ack = RegisterAck(&sched_b, Role::kServer, challenge);
  EXPECT_EQ(node.Verify(ack.first, "", "", ack.second.data(), kMacBytes, from_sched), "");
  EXPECT_EQ(node.run_id(), sched_b.run_id());
  // In run B now: the same acknowledgement again is a replay, run A's scheduler another run.
  EXPECT_NE(node.Verify(ack.first, "", "", ack.second.data(), kMacBytes, from_sched).find("replayed message"),
            std::string::npos);
  auto from_a = RegisterAck(&sched_a, Role::kServer, challenge);
  EXPECT_NE(node.Verify(from_a.first, "", "", from_a.second.data(), kMacBytes, from_sched).find("another run"),
            std::string::npos);
  worker.Sign(&push, "", "", 0, mac);
  EXPECT_EQ(node.Verify(push, "", "", mac, kMacBytes, RoleBit(Role::kWorker)), "");
}

TEST(PsRun, TheSchedulerTakesRegistrationsWithoutARunAndTheRestInItsRun) {
  const std::string secret(32, '\x44');
  Auth sched(secret, Role::kScheduler), other_sched(secret, Role::kScheduler);
  Auth fresh(secret, Role::kWorker), in_other_run(secret, Role::kWorker), member(secret, Role::kWorker);
  Join(&other_sched, &in_other_run, Role::kWorker);
  Join(&sched, &member, Role::kWorker);
  const uint32_t from_nodes = RoleBit(Role::kWorker) | RoleBit(Role::kServer);
  auto verify = [&](Auth* sender, Command c) {
    Header h;
    h.command = static_cast<uint16_t>(c);
    h.recipient_role = static_cast<uint8_t>(Role::kScheduler);
    h.recipient_rank = 0;
    unsigned char mac[kMacBytes];
    sender->Sign(&h, "", "", 0, mac);
    return sched.Verify(h, "", "", mac, kMacBytes, from_nodes);
  };
  EXPECT_EQ(verify(&fresh, Command::kRegister), "");
  EXPECT_NE(verify(&in_other_run, Command::kRegister).find("register message of a node already in run"),
            std::string::npos);
  EXPECT_NE(verify(&in_other_run, Command::kFinalize).find("message from another run"), std::string::npos);
  EXPECT_NE(verify(&fresh, Command::kHeartbeat).find("from a process outside this run"), std::string::npos);
  EXPECT_EQ(verify(&member, Command::kBarrier), "");
}

TEST(PsSecret, MissingOrMalformedSecretSaysHowToGetOne) {
  try {
    DecodeSecret(nullptr);
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("WEFT_PS_SECRET is not set"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("weft.launch"), std::string::npos) << e.what();
  }
  EXPECT_THROW(DecodeSecret("abcd"), std::exception);                    // too short
  EXPECT_THROW(DecodeSecret(std::string(64, 'g').c_str()), std::exception);  // not hex
  EXPECT_EQ(DecodeSecret(std::string(64, 'A').c_str()), std::string(32, '\xaa'));
}

}  // namespace
}  // namespace ps
}  // namespace weft
