#include "core/op/random_state.h"

#include <map>
#include <mutex>

namespace weft {
namespace {
std::mutex g_mu;
std::map<Context, RandomState*>& States() {
  static auto* states = new std::map<Context, RandomState*>();  // leaked with the engine
  return *states;
}
uint64_t g_seed = 0;
}  // namespace

RandomState::RandomState(Context ctx) : ctx_(ctx), var_(Engine::Get()->NewVar()) {
  // A random op that fails (bad dtype, bad parameter) must not fail every
  // later draw on this device: the generator stays valid (Note [Engine semantics]).
  Engine::Get()->KeepValidOnFailure(var_);
  Seed(g_seed);
}

RandomState* RandomState::Get(Context ctx) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto& states = States();
  auto it = states.find(ctx);
  if (it != states.end()) return it->second;
  auto* s = new RandomState(ctx);
  states[ctx] = s;
  return s;
}

void RandomState::SeedAll(uint64_t seed) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_seed = seed;
  for (auto& kv : States()) {
    RandomState* s = kv.second;
    // A write on the generator var: ordered after every draw pushed before it.
    Engine::Get()->Push([s, seed](RunContext) { s->Seed(seed); }, kv.first, {}, {s->var_},
                        FnProperty::kNormal, 0, "random_seed");
  }
}

}  // namespace weft
