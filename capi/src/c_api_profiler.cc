// C ABI: the profiler (c_api.h "profiler"; core/engine/profiler_control.h).
#include <string>
#include <utility>
#include <vector>

#include "capi/src/c_api_common.h"
#include "core/engine/profiler_control.h"

namespace wp = weft::profiler;

struct weft_profile_object {};  // the handle is a wp::Object*, cast both ways

namespace {
wp::Object* Obj(weft_profile_object* h) { return reinterpret_cast<wp::Object*>(h); }
const wp::Object* Obj(const weft_profile_object* h) { return reinterpret_cast<const wp::Object*>(h); }
}  // namespace

int weft_profiler_set_config(int num, const char* const* keys, const char* const* values) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK(num >= 0, kInvalidArgument) << "weft_profiler_set_config: num must be >= 0";
  if (num > 0) {
    WEFT_CHECK_ARG(keys);
    WEFT_CHECK_ARG(values);
  }
  std::vector<std::pair<std::string, std::string>> kv;
  for (int i = 0; i < num; ++i) {
    WEFT_CHECK(keys[i] != nullptr && values[i] != nullptr, kInvalidArgument)
        << "weft_profiler_set_config: key or value " << i << " is NULL";
    kv.emplace_back(keys[i], values[i]);
  }
  wp::SetConfig(kv);
  WEFT_API_END();
}

int weft_profiler_set_state(int state) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK(state == 0 || state == 1, kInvalidArgument)
      << "weft_profiler_set_state: state must be 0 (stop) or 1 (run), got " << state;
  wp::SetState(state == 1);
  WEFT_API_END();
}

int weft_profiler_pause(int paused) {
  WEFT_API_BEGIN_UNPROFILED();
  wp::SetPaused(paused != 0);
  WEFT_API_END();
}

int weft_profiler_dump(int finished) {
  WEFT_API_BEGIN_UNPROFILED();
  wp::Dump(finished != 0);
  WEFT_API_END();
}

int weft_profiler_dumps(int reset, int format, int sort_by, int ascending, const char** out) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(out);
  thread_local std::string text;
  text = wp::Dumps(reset != 0, format, sort_by, ascending != 0);
  *out = text.c_str();
  WEFT_API_END();
}

int weft_profiler_set_scope(const char* scope) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(scope);
  wp::SetScope(scope);
  WEFT_API_END();
}

int weft_profiler_create_object(int kind, const weft_profile_object* domain, const char* name,
                                weft_profile_object** out) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(name);
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(kind >= 0 && kind <= 4, kInvalidArgument)
      << "weft_profiler_create_object: kind must be 0..4 (domain, task, frame, event, counter), got " << kind;
  *out = reinterpret_cast<weft_profile_object*>(
      wp::CreateObject(static_cast<wp::ObjectKind>(kind), Obj(domain), name));
  WEFT_API_END();
}

int weft_profiler_free_object(weft_profile_object* obj) {
  WEFT_API_BEGIN_UNPROFILED();
  wp::DestroyObject(Obj(obj));
  WEFT_API_END();
}

int weft_profiler_duration_start(weft_profile_object* obj) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(obj);
  wp::DurationStart(Obj(obj));
  WEFT_API_END();
}

int weft_profiler_duration_stop(weft_profile_object* obj) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(obj);
  wp::DurationStop(Obj(obj));
  WEFT_API_END();
}

int weft_profiler_set_counter(weft_profile_object* obj, int64_t value) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(obj);
  wp::SetCounter(Obj(obj), value);
  WEFT_API_END();
}

int weft_profiler_adjust_counter(weft_profile_object* obj, int64_t delta) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(obj);
  wp::AdjustCounter(Obj(obj), delta);
  WEFT_API_END();
}

int weft_profiler_set_marker(const weft_profile_object* domain, const char* name, const char* scope) {
  WEFT_API_BEGIN_UNPROFILED();
  WEFT_CHECK_ARG(name);
  WEFT_CHECK_ARG(scope);
  wp::SetMarker(Obj(domain), name, scope);
  WEFT_API_END();
}
