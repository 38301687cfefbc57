// The PS wire format: valid messages round-trip, and every kind of malformed
// input is rejected with a reason instead of reaching a handler.
#include <gtest/gtest.h>
#include <zmq.h>

#include <string>
#include <vector>

#include "core/kvstore/ps_message.h"

namespace weft {
namespace ps {
namespace {

class WireTest : public ::testing::Test {
 protected:
  void SetUp() override {
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
    bool ok = ReceiveMessage(in_, false, limit, m, &why);
    EXPECT_TRUE(ok || !why.empty()) << "nothing was received";
    return ok ? "" : why;
  }
  static std::string HeaderBytes(const Header& h) { return std::string(reinterpret_cast<const char*>(&h), sizeof(h)); }

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
  ASSERT_TRUE(SendMessage(out_, std::move(m), false));
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

  SendFrames({"garbage"});
  EXPECT_NE(Receive(&m).find("expected 3 frames"), std::string::npos);

  SendFrames({"short", "k", ""});
  EXPECT_NE(Receive(&m).find("header frame of 5 bytes"), std::string::npos);

  Header bad = good;
  bad.magic = 0xdeadbeef;
  SendFrames({HeaderBytes(bad), "k", ""});
  EXPECT_NE(Receive(&m).find("bad magic"), std::string::npos);

  bad = good;
  bad.version = 9;
  SendFrames({HeaderBytes(bad), "k", ""});
  EXPECT_NE(Receive(&m).find("wire version 9"), std::string::npos);

  bad = good;
  bad.command = 999;
  SendFrames({HeaderBytes(bad), "k", ""});
  EXPECT_NE(Receive(&m).find("unknown command 999"), std::string::npos);

  bad = good;
  bad.key_len = 5;
  SendFrames({HeaderBytes(bad), "k", ""});
  EXPECT_NE(Receive(&m).find("key length 5"), std::string::npos);

  bad = good;
  bad.payload_bytes = uint64_t{1} << 40;
  SendFrames({HeaderBytes(bad), "k", "x"});
  EXPECT_NE(Receive(&m).find("exceeds the limit"), std::string::npos);

  bad = good;
  bad.payload_bytes = 10;
  SendFrames({HeaderBytes(bad), "k", "x"});
  EXPECT_NE(Receive(&m).find("announces 10 payload bytes"), std::string::npos);

  // and the socket still works afterwards
  ASSERT_TRUE(SendMessage(out_, MakeMessage(Command::kPull, "k"), false));
  EXPECT_EQ(Receive(&m), "");
  EXPECT_EQ(m.key, "k");
}

}  // namespace
}  // namespace ps
}  // namespace weft
