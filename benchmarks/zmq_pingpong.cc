// Raw-ZeroMQ baseline for benchmarks/kvstore.py: moves the same bytes as the
// KVStore benchmark with libzmq alone. One ROUTER "server" thread and W DEALER
// "worker" threads on loopback TCP; each round every worker sends every key's
// bytes (the push), waits for the acks, sends a request per key (the pull)
// and waits for the bytes to come back. The server copies received payloads
// into a buffer and replies from it, as a parameter server must.
//
//   bench_zmq_pingpong WORKERS KEYS FLOATS_PER_KEY ROUNDS
// prints: seconds=<wall time of the timed rounds> bytes=<bytes moved per worker>
#include <zmq.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

void Send(void* s, const void* data, size_t n, int flags) {
  zmq_msg_t m;
  zmq_msg_init_size(&m, n);
  if (n) std::memcpy(zmq_msg_data(&m), data, n);
  zmq_msg_send(&m, s, flags);
}

void Server(void* ctx, const std::string& ep, int workers, int keys, size_t bytes, int rounds) {
  void* s = zmq_socket(ctx, ZMQ_ROUTER);
  zmq_bind(s, ep.c_str());
  std::vector<char> store(bytes * keys);
  const long total = 2L * workers * keys * (rounds + 1);  // pushes and pulls, plus a warm-up round
  for (long i = 0; i < total; ++i) {
    zmq_msg_t id, key, body;
    zmq_msg_init(&id);
    zmq_msg_init(&key);
    zmq_msg_init(&body);
    zmq_msg_recv(&id, s, 0);
    zmq_msg_recv(&key, s, 0);
    zmq_msg_recv(&body, s, 0);
    int k = *static_cast<int*>(zmq_msg_data(&key));
    Send(s, zmq_msg_data(&id), zmq_msg_size(&id), ZMQ_SNDMORE);
    if (zmq_msg_size(&body) > 0) {  // a push: keep the bytes, acknowledge
      std::memcpy(store.data() + static_cast<size_t>(k) * bytes, zmq_msg_data(&body), bytes);
      Send(s, &k, sizeof(k), 0);
    } else {  // a pull: send the bytes back
      Send(s, &k, sizeof(k), ZMQ_SNDMORE);
      Send(s, store.data() + static_cast<size_t>(k) * bytes, bytes, 0);
    }
    zmq_msg_close(&id);
    zmq_msg_close(&key);
    zmq_msg_close(&body);
  }
  zmq_close(s);
}

void Worker(void* ctx, const std::string& ep, int keys, size_t bytes, int rounds, double* seconds) {
  void* s = zmq_socket(ctx, ZMQ_DEALER);
  zmq_connect(s, ep.c_str());
  std::vector<char> grad(bytes * keys, 1), out(bytes * keys);
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r <= rounds; ++r) {
    if (r == 1) t0 = std::chrono::steady_clock::now();  // round 0 warms up
    for (int k = 0; k < keys; ++k) {
      Send(s, &k, sizeof(k), ZMQ_SNDMORE);
      Send(s, grad.data() + static_cast<size_t>(k) * bytes, bytes, 0);
    }
    for (int k = 0; k < keys; ++k) {
      zmq_msg_t ack;
      zmq_msg_init(&ack);
      zmq_msg_recv(&ack, s, 0);
      zmq_msg_close(&ack);
    }
    for (int k = 0; k < keys; ++k) {
      Send(s, &k, sizeof(k), ZMQ_SNDMORE);
      Send(s, nullptr, 0, 0);
    }
    for (int k = 0; k < keys; ++k) {
      zmq_msg_t key, body;
      zmq_msg_init(&key);
      zmq_msg_init(&body);
      zmq_msg_recv(&key, s, 0);
      zmq_msg_recv(&body, s, 0);
      int kk = *static_cast<int*>(zmq_msg_data(&key));
      std::memcpy(out.data() + static_cast<size_t>(kk) * bytes, zmq_msg_data(&body), bytes);
      zmq_msg_close(&key);
      zmq_msg_close(&body);
    }
  }
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  zmq_close(s);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s WORKERS KEYS FLOATS_PER_KEY ROUNDS\n", argv[0]);
    return 2;
  }
  int workers = std::atoi(argv[1]), keys = std::atoi(argv[2]), rounds = std::atoi(argv[4]);
  size_t bytes = static_cast<size_t>(std::atol(argv[3])) * sizeof(float);
  void* ctx = zmq_ctx_new();
  std::string ep = "tcp://127.0.0.1:" + std::to_string(20000 + (getpid() % 20000));
  std::thread server(Server, ctx, ep, workers, keys, bytes, rounds);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::vector<double> secs(workers);
  std::vector<std::thread> ws;
  for (int w = 0; w < workers; ++w) ws.emplace_back(Worker, ctx, ep, keys, bytes, rounds, &secs[w]);
  for (auto& t : ws) t.join();
  server.join();
  zmq_ctx_term(ctx);
  double worst = 0;
  for (double s : secs) worst = s > worst ? s : worst;
  std::printf("seconds=%.6f bytes=%zu\n", worst, 2 * bytes * keys * static_cast<size_t>(rounds));
  return 0;
}
