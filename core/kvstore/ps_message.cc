#include "core/kvstore/ps_message.h"

#include <vector>

namespace weft {
namespace ps {

const char* CommandName(Command c) {
  static const char* const kNames[] = {"?",          "register",   "register_ack", "heartbeat",     "barrier",
                                       "barrier_ack", "finalize",  "finalize_ack", "abort",         "exit",
                                       "init",       "push",       "pull",         "set_optimizer", "ack",
                                       "pull_reply", "error"};
  auto i = static_cast<size_t>(c);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

Message MakeMessage(Command c, const std::string& key, const std::string& payload) {
  Message m;
  m.head.command = static_cast<uint16_t>(c);
  m.key = key;
  m.payload = Frame(payload);
  return m;
}

bool SendMessage(void* sock, Message&& m, bool routed, Auth* auth) {
  m.head.magic = kMagic;
  m.head.version = kWireVersion;
  m.head.key_len = static_cast<uint32_t>(m.key.size());
  m.head.payload_bytes = m.payload.size();
  Frame mac(kMacBytes);
  auth->Sign(&m.head, m.key, m.payload.data(), m.payload.size(), reinterpret_cast<unsigned char*>(mac.data()));
  if (routed) {
    Frame id(m.identity);
    if (zmq_msg_send(id.raw(), sock, ZMQ_SNDMORE) < 0) return false;
  }
  Frame head(&m.head, sizeof(Header));
  Frame key(m.key);
  if (zmq_msg_send(head.raw(), sock, ZMQ_SNDMORE) < 0) return false;
  if (zmq_msg_send(key.raw(), sock, ZMQ_SNDMORE) < 0) return false;
  if (zmq_msg_send(m.payload.raw(), sock, ZMQ_SNDMORE) < 0) return false;
  return zmq_msg_send(mac.raw(), sock, 0) >= 0;
}

bool ReceiveMessage(void* sock, bool routed, uint64_t max_payload, Auth* auth, uint32_t from, Message* m,
                    std::string* why) {
  why->clear();
  m->peer.clear();
  std::vector<Frame> frames;
  for (;;) {
    Frame f;
    if (zmq_msg_recv(f.raw(), sock, ZMQ_DONTWAIT) < 0) {
      if (frames.empty()) return false;  // nothing there
      *why = "incomplete multipart message";
      return false;
    }
    bool more = zmq_msg_more(f.raw()) != 0;
    // A ROUTER's identity frame may lack the connection's metadata: ask each frame.
    if (m->peer.empty()) {
      const char* addr = zmq_msg_gets(f.raw(), "Peer-Address");  // tcp peers only
      if (addr != nullptr) m->peer = addr;
    }
    if (frames.size() < 8) frames.push_back(std::move(f));  // more than 5 frames is invalid anyway
    if (!more) break;
  }
  size_t first = routed ? 1 : 0;
  if (m->peer.empty() && routed && !frames.empty()) {
    // ZeroMQ does not report the address of every frame (small ones come
    // without it): name the connection by its routing id instead.
    static const char kHex[] = "0123456789abcdef";
    std::string id = "routing id 0x";
    for (unsigned char c : frames[0].str()) id += std::string{kHex[c >> 4], kHex[c & 15]};
    m->peer = id;
  }
  if (frames.size() != first + 4) {
    *why = "expected " + std::to_string(first + 4) + " frames, got " + std::to_string(frames.size());
    return false;
  }
  if (routed) m->identity = frames[0].str();
  const Frame& hf = frames[first];
  if (hf.size() != sizeof(Header)) {
    *why = "header frame of " + std::to_string(hf.size()) + " bytes (expected " + std::to_string(sizeof(Header)) + ")";
    return false;
  }
  std::memcpy(&m->head, hf.data(), sizeof(Header));
  const Header& h = m->head;
  if (h.magic != kMagic) {
    *why = "bad magic number";
    return false;
  }
  if (h.version != kWireVersion) {
    *why = "wire version " + std::to_string(h.version) + " (this build speaks " + std::to_string(kWireVersion) + ")";
    return false;
  }
  if (h.command < 1 || h.command > static_cast<uint16_t>(Command::kLast)) {
    *why = "unknown command " + std::to_string(h.command);
    return false;
  }
  if (h.key_len > kMaxKeyBytes || h.key_len != frames[first + 1].size()) {
    *why = "key length " + std::to_string(h.key_len) + " does not match its frame of " +
           std::to_string(frames[first + 1].size()) + " bytes (limit " + std::to_string(kMaxKeyBytes) + ")";
    return false;
  }
  if (h.payload_bytes > max_payload) {
    *why = "payload of " + std::to_string(h.payload_bytes) + " bytes exceeds the limit of " +
           std::to_string(max_payload) + " (WEFT_PS_MAX_MESSAGE_BYTES)";
    return false;
  }
  if (h.payload_bytes != frames[first + 2].size()) {
    *why = "header announces " + std::to_string(h.payload_bytes) + " payload bytes but the frame has " +
           std::to_string(frames[first + 2].size());
    return false;
  }
  *why = auth->Verify(h, frames[first + 1].data(), frames[first + 2].data(), frames[first + 3].data(),
                      frames[first + 3].size(), from);
  if (!why->empty()) return false;
  m->key = frames[first + 1].str();
  m->payload = std::move(frames[first + 2]);
  return true;
}

}  // namespace ps
}  // namespace weft
