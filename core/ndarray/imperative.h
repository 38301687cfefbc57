// Imperative op calls: parse the attributes, infer shapes and types, allocate
// outputs and push the kernel to the engine — all checks happen here, on the
// caller's thread, before anything is pushed (bad input never reaches a worker).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ndarray/ndarray.h"
#include "core/opdef/op_def.h"

namespace weft {

using AttrList = std::vector<std::pair<std::string, std::string>>;

// Runs `op` on inputs. When *outputs is non-empty its arrays are written in
// place (the `out=` argument; shapes and dtypes must match what inference
// gives); otherwise new arrays are allocated and appended. Returns the visible
// outputs through *outputs. Ops without inputs take their device from a "ctx"
// parameter (default cpu(0)); ops with inputs require all on one device.
void Invoke(const OpDef& op, const AttrList& attrs, const std::vector<NDArray>& inputs,
            std::vector<NDArray>* outputs, bool is_train = false);

// Same, with attributes already parsed (the executor and fast paths).
// `params` is taken by value so the pushed closure can own it without a copy.
void InvokeParsed(const OpDef& op, Params params, std::vector<NDArray> inputs,
                  std::vector<NDArray>* outputs, bool is_train = false);

// Autograd's backward pass (Note [Backward outputs] in core/autograd/autograd.cc):
// *outputs holds one entry per output, hidden ones included, where a none
// entry is allocated here and a given one is written (a variable's gradient
// array); `dead[i]` marks outputs nobody reads, computed with kNull (their
// arrays are allocated but left unwritten). Returns the visible outputs.
void InvokeBackward(const OpDef& op, const Params& params, std::vector<NDArray> inputs,
                    std::vector<NDArray>* outputs, bool is_train, const std::vector<bool>& dead);

// An op call whose checks are done: the executor prepares one per graph node
// at bind (inference, allocation, write modes) and pushes it every step, so a
// step costs one engine push per node and nothing else on the caller's thread.
struct PreparedOp {
  const OpDef* op = nullptr;
  Params params;
  std::vector<NDArray> inputs, outputs;  // outputs: all of them, hidden ones too
  std::vector<OpReq> req;                // per output; kNull: the output is dead (no one reads it)
  std::vector<VarHandle> reads, writes;
  Context ctx;
  RandomState* rng = nullptr;
};

// Fills reads/writes/ctx/rng and the default write modes (kWriteInplace where
// an output is an input's memory, kWriteTo elsewhere) of a call whose inputs
// and outputs are already shaped, typed and on one device. `dead[i]` marks
// outputs nobody reads (kNull). Throws like InvokeParsed on a wrong call.
void PrepareOp(PreparedOp* p, const std::vector<bool>& dead = {});
// Pushes the prepared call; `p` must outlive the push (the executor keeps it).
// Every op call goes through these two: Invoke* prepare and push one
// PreparedOp per call, the executor prepares at bind and pushes every step.
void PushPrepared(const std::shared_ptr<const PreparedOp>& p, bool is_train);

// Note [Recording hook]
// The NDArray layer knows nothing of autograd (which sits above it and calls
// down into Invoke). Autograd installs this hook at load time; Invoke* call it
// after allocating the outputs and before pushing, when `is_recording()` says
// the calling thread records, so the outputs are tagged before they are
// handed back.
using RecordingFn = bool (*)();
using RecordFn = void (*)(const OpDef& op, const Params& params, const std::vector<NDArray>& inputs,
                          std::vector<NDArray>* outputs);
void SetRecordHook(RecordingFn is_recording, RecordFn record);

}  // namespace weft
