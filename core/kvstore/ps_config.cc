#include "core/kvstore/ps_config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/base/error.h"
#include "core/kvstore/ps_auth.h"

namespace weft {
namespace ps {
namespace {

// WEFT_<name>, else DMLC_<name>, else nullptr.
const char* Lookup(const char* weft_name, const char* dmlc_name) {
  const char* v = std::getenv(weft_name);
  if ((v == nullptr || *v == '\0') && dmlc_name != nullptr) v = std::getenv(dmlc_name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

int64_t ParseInt(const char* name, const char* text, int64_t lo, int64_t hi) {
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  WEFT_CHECK(end != text && *end == '\0' && v >= lo && v <= hi, kInvalidArgument)
      << "kvstore: environment variable " << name << "='" << text << "' is not an integer in [" << lo << ", " << hi
      << "]";
  return v;
}

int64_t RequiredInt(const char* weft_name, const char* dmlc_name, int64_t lo, int64_t hi) {
  const char* v = Lookup(weft_name, dmlc_name);
  WEFT_CHECK(v != nullptr, kInvalidArgument) << "kvstore: environment variable " << weft_name << " (or "
                                             << dmlc_name << ") is not set; start the job with python -m weft.launch";
  return ParseInt(weft_name, v, lo, hi);
}

// host's IPv4 address as text (host itself when it is one); empty when it
// does not resolve.
std::string ResolveIPv4(const std::string& host) {
  in_addr a{};
  if (inet_pton(AF_INET, host.c_str(), &a) == 1) return host;
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &res) != 0 || res == nullptr) return "";
  char buf[INET_ADDRSTRLEN] = {0};
  const char* ok = inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(res->ai_addr)->sin_addr, buf, sizeof(buf));
  freeaddrinfo(res);
  return ok ? buf : "";
}

// The local address of the route to `host` (no packet is sent: a UDP connect
// only picks the route). Empty when it cannot be found.
std::string RouteAddressTo(const std::string& host) {
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(9);
  std::string ip = ResolveIPv4(host);
  if (ip.empty() || inet_pton(AF_INET, ip.c_str(), &dst.sin_addr) != 1) return "";
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return "";
  std::string out;
  sockaddr_in self{};
  socklen_t len = sizeof(self);
  if (connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof(dst)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&self), &len) == 0) {
    char buf[INET_ADDRSTRLEN] = {0};
    if (inet_ntop(AF_INET, &self.sin_addr, buf, sizeof(buf)) != nullptr) out = buf;
  }
  close(fd);
  return out;
}

}  // namespace

const char* RoleName(Role r) {
  switch (r) {
    case Role::kWorker: return "worker";
    case Role::kServer: return "server";
    case Role::kScheduler: return "scheduler";
  }
  return "?";
}

bool Config::Launched() { return Lookup("WEFT_ROLE", "DMLC_ROLE") != nullptr; }

Config Config::FromEnv() {
  Config c;
  const char* role = Lookup("WEFT_ROLE", "DMLC_ROLE");
  WEFT_CHECK(role != nullptr, kInvalidArgument)
      << "kvstore: WEFT_ROLE (or DMLC_ROLE) is not set: a distributed kvstore runs in processes started by "
         "python -m weft.launch";
  std::string r(role);
  if (r == "worker") {
    c.role = Role::kWorker;
  } else if (r == "server") {
    c.role = Role::kServer;
  } else if (r == "scheduler") {
    c.role = Role::kScheduler;
  } else {
    WEFT_THROW(kInvalidArgument) << "kvstore: WEFT_ROLE='" << r << "' (expected worker, server or scheduler)";
  }
  const char* uri = Lookup("WEFT_PS_ROOT_URI", "DMLC_PS_ROOT_URI");
  WEFT_CHECK(uri != nullptr, kInvalidArgument) << "kvstore: WEFT_PS_ROOT_URI (or DMLC_PS_ROOT_URI) is not set";
  c.root_uri = uri;
  c.root_port = static_cast<int>(RequiredInt("WEFT_PS_ROOT_PORT", "DMLC_PS_ROOT_PORT", 1, 65535));
  c.num_workers = static_cast<int>(RequiredInt("WEFT_NUM_WORKER", "DMLC_NUM_WORKER", 1, 100000));
  c.num_servers = static_cast<int>(RequiredInt("WEFT_NUM_SERVER", "DMLC_NUM_SERVER", 1, 100000));
  if (const char* t = Lookup("WEFT_PS_TIMEOUT", nullptr)) {
    c.timeout_s = static_cast<double>(ParseInt("WEFT_PS_TIMEOUT", t, 1, 86400));
  }
  if (const char* p = Lookup("WEFT_NODE_PORT", nullptr)) {
    c.node_port = static_cast<int>(ParseInt("WEFT_NODE_PORT", p, 1, 65535));
  }
  if (const char* m = Lookup("WEFT_PS_MAX_MESSAGE_BYTES", nullptr)) {
    c.max_message_bytes = static_cast<uint64_t>(ParseInt("WEFT_PS_MAX_MESSAGE_BYTES", m, 1024, int64_t{1} << 40));
  }
  if (const char* b = Lookup("WEFT_KVSTORE_BIGARRAY_BOUND", "MXNET_KVSTORE_BIGARRAY_BOUND")) {
    c.bigarray_bound = ParseInt("WEFT_KVSTORE_BIGARRAY_BOUND", b, 1, int64_t{1} << 62);
  }
  c.secret = DecodeSecret(Lookup("WEFT_PS_SECRET", nullptr));
  if (const char* h = Lookup("WEFT_NODE_HOST", "DMLC_NODE_HOST")) {
    c.node_host = h;
    c.node_host_given = true;
  } else if (c.root_uri == "127.0.0.1" || c.root_uri == "localhost") {
    c.node_host = "127.0.0.1";
  } else {
    c.node_host = RouteAddressTo(c.root_uri);
    if (c.node_host.empty()) {
      char name[256] = {0};
      gethostname(name, sizeof(name) - 1);
      c.node_host = name;
    }
  }
  return c;
}

std::string Config::ListenAddress() const {
  std::string name = role == Role::kScheduler && !node_host_given ? root_uri : node_host;
  std::string ip = ResolveIPv4(name);
  WEFT_CHECK(!ip.empty(), kInvalidArgument)
      << "kvstore " << RoleName(role) << ": cannot resolve '" << name << "' to an IPv4 address to listen on; set "
      << "WEFT_NODE_HOST to the address of this node's interface";
  if (ip.rfind("127.", 0) == 0 && name != "localhost" && name.rfind("127.", 0) != 0) {
    // Debian maps a host's own name to 127.0.1.1: other machines could not connect.
    std::fprintf(stderr, "weft kvstore %s: '%s' resolves to %s here, so only this machine can reach it; for a "
                 "job across machines set WEFT_NODE_HOST (or --root-uri) to this node's network address\n",
                 RoleName(role), name.c_str(), ip.c_str());
  }
  return ip;
}

std::string Config::SchedulerEndpoint() const { return "tcp://" + root_uri + ":" + std::to_string(root_port); }

int HeartbeatIntervalMs(double timeout_s) {
  return static_cast<int>(std::clamp(timeout_s * 1000.0 / 5.0, 100.0, 1000.0));
}

}  // namespace ps
}  // namespace weft
