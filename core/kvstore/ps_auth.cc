#include "core/kvstore/ps_auth.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstdio>
#include <cstring>

#include "core/base/error.h"
#include "core/kvstore/ps_message.h"

namespace weft {
namespace ps {
namespace {

EVP_MAC_CTX* Ctx(void* p) { return static_cast<EVP_MAC_CTX*>(p); }

// 0 stands for "none yet" (a node's run id before it registers).
uint64_t RandomNonZero(const char* what) {
  uint64_t v = 0;
  while (v == 0) {
    WEFT_CHECK(RAND_bytes(reinterpret_cast<unsigned char*>(&v), sizeof(v)) == 1, kInternal)
        << "kvstore: no random bytes for " << what;
  }
  return v;
}

}  // namespace

std::string Hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string DecodeSecret(const char* hex) {
  static const char* const kHowTo =
      "; every process of a job needs the same secret: run it under python -m weft.launch (which draws one), or "
      "set WEFT_PS_SECRET yourself to the output of `python3 -c \"import secrets; print(secrets.token_hex(32))\"` "
      "on every process (Note [PS authentication])";
  WEFT_CHECK(hex != nullptr && *hex != '\0', kInvalidArgument)
      << "kvstore: WEFT_PS_SECRET is not set: the nodes of a distributed job accept only messages signed with the "
         "job's secret"
      << kHowTo;
  std::string text(hex), out;
  bool ok = text.size() >= 32 && text.size() % 2 == 0;
  for (size_t i = 0; ok && i < text.size(); i += 2) {
    auto nibble = [&](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      ok = false;
      return 0;
    };
    int hi = nibble(text[i]), lo = nibble(text[i + 1]);
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  WEFT_CHECK(ok, kInvalidArgument) << "kvstore: WEFT_PS_SECRET must be at least 32 hex digits (an even number), got "
                                   << text.size() << " characters" << kHowTo;
  return out;
}

Auth::Auth(const std::string& secret, Role self) : role_(self) {
  WEFT_CHECK(!secret.empty(), kInvalidArgument) << "kvstore: empty job secret";
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  WEFT_CHECK(mac != nullptr, kInternal) << "kvstore: OpenSSL has no HMAC";
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  EVP_MAC_free(mac);  // the context holds its own reference
  char digest[] = "SHA256";
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                         OSSL_PARAM_construct_end()};
  WEFT_CHECK(ctx != nullptr && EVP_MAC_init(ctx, reinterpret_cast<const unsigned char*>(secret.data()),
                                            secret.size(), params) == 1,
             kInternal)
      << "kvstore: cannot set up HMAC-SHA256";
  mac_template_ = ctx;
  // The job id: a hash of the secret (naming a foreign job's messages in the
  // log reveals nothing about the secret).
  std::string tagged = "weft ps job id\n" + secret;
  unsigned char digest_out[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(tagged.data()), tagged.size(), digest_out);
  std::memcpy(&job_id_, digest_out, sizeof(job_id_));
  incarnation_ = RandomNonZero("the process id");
  if (self == Role::kScheduler) {
    rank_ = 0;
    run_id_ = RandomNonZero("the run id");  // Note [PS runs]
  }
}

uint64_t Auth::NewChallenge() {
  uint64_t c = RandomNonZero("the registration challenge");
  std::lock_guard<std::mutex> lk(mu_);
  challenge_ = c;
  return c;
}

Auth::~Auth() { EVP_MAC_CTX_free(Ctx(mac_template_)); }

void Auth::Mac(const Header& h, const void* key, size_t key_len, const void* payload, size_t payload_bytes,
               unsigned char out[kMacBytes]) const {
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_dup(Ctx(mac_template_));
  size_t len = 0;
  bool ok = ctx != nullptr && EVP_MAC_update(ctx, reinterpret_cast<const unsigned char*>(&h), sizeof(h)) == 1 &&
            EVP_MAC_update(ctx, static_cast<const unsigned char*>(key), key_len) == 1 &&
            EVP_MAC_update(ctx, static_cast<const unsigned char*>(payload), payload_bytes) == 1 &&
            EVP_MAC_final(ctx, out, &len, kMacBytes) == 1 && len == kMacBytes;
  EVP_MAC_CTX_free(ctx);
  if (!ok) std::memset(out, 0, kMacBytes);  // never matches a real MAC (Verify compares to a computed one)
  WEFT_CHECK(ok, kInternal) << "kvstore: HMAC-SHA256 failed";
}

void Auth::Sign(Header* h, const std::string& key, const void* payload, size_t payload_bytes,
                unsigned char mac[kMacBytes]) {
  h->job_id = job_id_;
  h->run_id = run_id_;
  h->incarnation = incarnation_;
  h->nonce = next_nonce_.fetch_add(1);
  h->sender_role = static_cast<uint8_t>(role_);
  h->reserved = 0;
  Mac(*h, key.data(), key.size(), payload, payload_bytes, mac);
}

std::string Auth::Verify(const Header& h, const void* key, const void* payload, const void* mac, size_t mac_bytes,
                         uint32_t from) {
  if (h.job_id != job_id_) {
    return "message from another job (job id " + Hex64(h.job_id) + ", this job's is " + Hex64(job_id_) +
           "), or from a process without this job's WEFT_PS_SECRET";
  }
  if (mac_bytes != kMacBytes) return "MAC frame of " + std::to_string(mac_bytes) + " bytes (expected 32)";
  unsigned char want[kMacBytes];
  Mac(h, key, h.key_len, payload, h.payload_bytes, want);
  if (CRYPTO_memcmp(want, mac, kMacBytes) != 0) {
    return "bad MAC: the sender does not have this job's WEFT_PS_SECRET, or the message was altered";
  }
  // Authentic from here on: a node of this job sent it, in this run or another.
  std::lock_guard<std::mutex> lk(mu_);
  bool join = false;
  std::string wrong_run = CheckRun(h, &join);
  if (!wrong_run.empty()) return wrong_run;
  // Of this run: a node of this run sent it (bugs, not attacks).
  if (h.sender_role > static_cast<uint8_t>(Role::kScheduler) ||
      (RoleBit(static_cast<Role>(h.sender_role)) & from) == 0) {
    return "a " + std::string(RoleName(static_cast<Role>(h.sender_role))) + " may not send on this socket";
  }
  int rank = rank_;
  if (h.recipient_role != static_cast<uint8_t>(role_) ||
      (rank >= 0 && h.recipient_rank >= 0 && h.recipient_rank != rank)) {
    return "message meant for " + std::string(RoleName(static_cast<Role>(h.recipient_role))) + " " +
           std::to_string(h.recipient_rank) + " (replayed from another node's traffic?)";
  }
  uint64_t& last = last_nonce_[h.incarnation];
  if (h.nonce <= last) {
    return "replayed message (nonce " + std::to_string(h.nonce) + ", already accepted up to " + std::to_string(last) +
           " from that process)";
  }
  last = h.nonce;
  if (join) {
    run_id_ = h.run_id;
    scheduler_incarnation_ = h.incarnation;
    challenge_ = 0;  // answered: a second acknowledgement of it is refused
  }
  return "";
}

std::string Auth::CheckRun(const Header& h, bool* join) const {
  const uint64_t run = run_id_;
  const auto command = static_cast<Command>(h.command);
  if (role_ == Role::kScheduler) {
    if (command == Command::kRegister) {
      if (h.run_id == 0) return "";
      return "register message of a node already in run " + Hex64(h.run_id) + " (this run is " + Hex64(run) +
             "): replayed from another run";
    }
  } else if (run == 0) {
    // Not in a run yet: only the answer to this node's own challenge (or the
    // scheduler giving up on the registrations, kAbort, which echoes it too).
    const bool answer = command == Command::kRegisterAck || command == Command::kAbort;
    if (!answer || h.sender_role != static_cast<uint8_t>(Role::kScheduler)) {
      return std::string(CommandName(command)) + " message before this node joined a run (from run " +
             Hex64(h.run_id) + ")";
    }
    if (challenge_ == 0 || h.request_id != challenge_ || h.run_id == 0) {
      return "registration reply that does not answer this node's challenge (replayed from another run, or "
             "meant for another node; run " +
             Hex64(h.run_id) + ")";
    }
    *join = command == Command::kRegisterAck;
    return "";
  }
  if (h.run_id == 0) {
    return std::string(CommandName(command)) + " message from a process outside this run (run id 0: it has not "
           "registered, e.g. one restarted after the run began)";
  }
  if (h.run_id != run) {
    return "message from another run (run id " + Hex64(h.run_id) + ", this run's is " + Hex64(run) +
           "): replayed from an earlier run with the same WEFT_PS_SECRET, or sent by a process of one";
  }
  if (h.sender_role == static_cast<uint8_t>(Role::kScheduler) && role_ != Role::kScheduler &&
      h.incarnation != scheduler_incarnation_) {
    return "message from a scheduler process other than the one this node registered with (process id " +
           Hex64(h.incarnation) + ", expected " + Hex64(scheduler_incarnation_) + ")";
  }
  return "";
}

void RejectionLog::Note(const std::string& peer, const std::string& why) {
  constexpr int kLinesPerWindow = 20;
  auto now = std::chrono::steady_clock::now();
  ++total_;
  if (now - window_start_ > std::chrono::seconds(10)) {
    if (suppressed_ > 0) {
      std::fprintf(stderr, "%s: rejected %llu more message(s) in the last 10 s (%llu in all)\n", who_.c_str(),
                   static_cast<unsigned long long>(suppressed_), static_cast<unsigned long long>(total_ - 1));
    }
    window_start_ = now;
    in_window_ = 0;
    suppressed_ = 0;
  }
  if (in_window_ < kLinesPerWindow) {
    ++in_window_;
    std::fprintf(stderr, "%s: rejected a message from %s: %s\n", who_.c_str(),
                 peer.empty() ? "an unnamed peer" : peer.c_str(), why.c_str());
  } else {
    ++suppressed_;
  }
}

}  // namespace ps
}  // namespace weft
