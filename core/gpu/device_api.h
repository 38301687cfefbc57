// The GPU device layer: what the engine, storage and kernels need from a GPU
// runtime, behind plain functions so that nothing outside core/gpu includes
// cuda_runtime.h.
//
// Note [Two GPU backends]
// device_api_cuda.cc implements this over the CUDA runtime (-DWEFT_USE_CUDA=ON).
// device_api_emulated.cc implements it on the host: gpu(i) is host memory, a
// stream is a tag, work runs synchronously. It exists so that everything above
// the device layer -- the GPU kernels (core/op/<family>/*.cu, compiled as C++ in that
// build), the engine's GPU lanes and stream completion, copies between
// devices, the device KVStore -- runs and is tested on machines without a GPU.
// It is off unless WEFT_GPU_EMULATE=N (N emulated devices) is set, so a build
// without CUDA reports "no GPU" to users exactly as before. What emulation
// cannot check: launch configuration, races between CUDA threads, and speed.
#pragma once
#include <cstddef>

#include "core/base/context.h"

namespace weft {
namespace gpu {

using Stream = void*;

// "cuda" or "emulated".
const char* BackendName();
// Devices usable now: CUDA devices, or WEFT_GPU_EMULATE's count; 0 when none
// (no driver, no device, emulation off). Never throws.
int DeviceCount();
// Throws kInvalidArgument naming ctx and why it cannot be used (no device,
// id out of range, CUDA error).
void CheckDevice(Context ctx);
// Makes dev the calling thread's current device.
void SetDevice(int dev);

// Device memory; nullptr when out of memory. Free takes what Alloc returned.
void* DeviceAlloc(int dev, size_t bytes);
void DeviceFree(int dev, void* ptr);
// Page-locked host memory (cpu_pinned); falls back to ordinary host memory
// where no runtime can pin. nullptr when out of memory.
void* PinnedAlloc(size_t bytes);
void PinnedFree(void* ptr);

// The stream of the calling engine worker thread for device dev, created on
// first use: one compute and one copy stream per worker thread, so the ops of
// different workers overlap on the device.
Stream WorkerStream(int dev, bool copy);
// Scratch device memory of the calling worker thread: at least `bytes`,
// valid until the next WorkerScratch call on this thread, contents undefined.
// Safe to reuse op after op because one worker's ops are ordered on its own
// stream; growing it frees the old block, which waits for the device. Throws
// kOutOfMemory.
void* WorkerScratch(int dev, size_t bytes, Stream s);
// Copies between any two of host / device memory (unified addressing decides
// the direction), queued on s.
void MemcpyAsync(void* dst, const void* src, size_t bytes, Stream s);
void MemsetAsync(void* dst, int value, size_t bytes, Stream s);
// Synchronous copy for readers that already waited on the engine.
void MemcpySync(void* dst, const void* src, size_t bytes);
// Blocks the calling thread until everything queued on s has run.
void StreamSync(Stream s);
// Calls fn(arg) once everything queued on s so far has run; fn runs on a
// runtime thread (CUDA) or at once (emulation) and must not call the GPU API.
// This is how the engine completes a GPU op without blocking its worker.
void OnStreamDone(Stream s, void (*fn)(void*), void* arg);
// Throws kEngine with `what` and the runtime's message if the last launch on
// this thread failed.
void CheckLastError(const char* what);

}  // namespace gpu
}  // namespace weft
