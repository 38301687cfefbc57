/* Weft C ABI. Conventions (STYLE.md):
 *  - functions are named weft_<object>_<verb>; objects are distinct opaque types;
 *  - every fallible call returns int: 0 on success, otherwise a weft_status value,
 *    and weft_last_error() gives this thread's message;
 *  - every object returned has a _free that accepts NULL;
 *  - shapes are int64_t; dtypes use MXNet's flags (0 float32, 1 float64,
 *    2 float16, 3 uint8, 4 int32, 5 int8, 6 int64, 7 bool, 12 bfloat16);
 *    devices use dev_type 1 cpu, 2 gpu, 3 cpu_pinned and an index;
 *  - strings/arrays returned without a _free stay valid until the next call on
 *    the same thread (each comment says when it differs);
 *  - the ABI is append-only: new functions go at the end of their section.
 * The declarations are kept parseable by cffi's cdef (no macros in them). */
#ifndef WEFT_C_API_H_
#define WEFT_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef WEFT_API
#define WEFT_API __attribute__((visibility("default")))
#endif

#define WEFT_ABI_VERSION 1

/* WEFT-CDEF-BEGIN (bindings read from here to WEFT-CDEF-END) */
enum weft_status {
  WEFT_OK = 0,
  WEFT_ERR_INVALID_ARGUMENT = 1,
  WEFT_ERR_SHAPE = 2,
  WEFT_ERR_DTYPE = 3,
  WEFT_ERR_OUT_OF_MEMORY = 4,
  WEFT_ERR_NOT_FOUND = 5,
  WEFT_ERR_ENGINE = 6,
  WEFT_ERR_IO = 7,
  WEFT_ERR_INTERNAL = 8
};

typedef struct weft_ndarray weft_ndarray;
typedef struct weft_op weft_op;
typedef struct weft_symbol weft_symbol;
typedef struct weft_executor weft_executor;
typedef struct weft_cached_op weft_cached_op;

typedef struct weft_storage_stats {
  int64_t bytes_in_use;
  int64_t peak_bytes_in_use;
  int64_t bytes_pooled;
  int64_t num_allocs;
  int64_t num_pool_hits;
} weft_storage_stats;

/* ---- library ---------------------------------------------------------- */
/* The message of the last failed call on this thread (never NULL). */
WEFT_API const char* weft_last_error(void);
/* WEFT_ABI_VERSION of the loaded library. */
WEFT_API int weft_abi_version(void);
/* Library version text, e.g. "0.1.0"; static storage. */
WEFT_API const char* weft_version(void);

/* ---- engine ----------------------------------------------------------- */
/* Waits for every pushed op; returns the first op error stored since the last call. */
WEFT_API int weft_wait_all(void);
/* Reseeds the random generators of every device (an engine write on each). */
WEFT_API int weft_random_seed(uint64_t seed);

/* ---- storage ---------------------------------------------------------- */
WEFT_API int weft_storage_stats_get(int dev_type, int dev_id, weft_storage_stats* out);
/* Returns pooled blocks of the device to the system. */
WEFT_API int weft_storage_release_all(int dev_type, int dev_id);

/* ---- ndarray ---------------------------------------------------------- */
/* New uninitialised array. *out is owned by the caller: weft_ndarray_free. */
WEFT_API int weft_ndarray_create(const int64_t* shape, int ndim, int dtype, int dev_type, int dev_id,
                                 weft_ndarray** out);
/* Releases the handle; the memory is freed after pending ops. Accepts NULL. */
WEFT_API void weft_ndarray_free(weft_ndarray* arr);
/* *shape points into the handle: valid until the handle is freed. */
WEFT_API int weft_ndarray_shape(const weft_ndarray* arr, int* ndim, const int64_t** shape);
WEFT_API int weft_ndarray_dtype(const weft_ndarray* arr, int* dtype);
WEFT_API int weft_ndarray_context(const weft_ndarray* arr, int* dev_type, int* dev_id);
/* Blocking copies; nbytes must equal size * itemsize. */
WEFT_API int weft_ndarray_copy_from_host(weft_ndarray* arr, const void* data, size_t nbytes);
WEFT_API int weft_ndarray_copy_to_host(const weft_ndarray* arr, void* data, size_t nbytes);
WEFT_API int weft_ndarray_wait_to_read(const weft_ndarray* arr);
WEFT_API int weft_ndarray_wait_to_write(const weft_ndarray* arr);
/* Views sharing memory and dependencies with arr; each *out is a new handle. */
WEFT_API int weft_ndarray_reshape(const weft_ndarray* arr, const int64_t* shape, int ndim,
                                  weft_ndarray** out);
WEFT_API int weft_ndarray_slice(const weft_ndarray* arr, int64_t begin, int64_t end, weft_ndarray** out);
WEFT_API int weft_ndarray_at(const weft_ndarray* arr, int64_t index, weft_ndarray** out);
/* Pushes a copy to another device; *out is a new handle. */
WEFT_API int weft_ndarray_copy_to_context(const weft_ndarray* arr, int dev_type, int dev_id,
                                          weft_ndarray** out);
/* Pushes a copy of src into dst (same shape; dtype converted). */
WEFT_API int weft_ndarray_copy(const weft_ndarray* src, weft_ndarray* dst);
/* A new handle to the same array (same chunk, shape and dtype). */
WEFT_API int weft_ndarray_clone_handle(const weft_ndarray* arr, weft_ndarray** out);
/* 1 when a and b are views of the same memory chunk. */
WEFT_API int weft_ndarray_shares_memory(const weft_ndarray* a, const weft_ndarray* b, int* out);

/* ---- save / load (MXNet 1.x .params format) --------------------------- */
/* keys may be NULL (a list) or hold n names (a dict). */
WEFT_API int weft_ndarray_save(const char* fname, int n, weft_ndarray* const* arrays, const char* const* keys);
/* *buf is valid until the next call on this thread. */
WEFT_API int weft_ndarray_save_to_buffer(int n, weft_ndarray* const* arrays, const char* const* keys,
                                         const char** buf, size_t* size);
/* Loads arrays; *arrays is a thread-local list of n new handles (each owned by
 * the caller); *keys is NULL for a list file, else n names valid until the
 * next call on this thread. */
WEFT_API int weft_ndarray_load(const char* fname, int* n, weft_ndarray*** arrays, int* num_keys,
                               const char*** keys);
WEFT_API int weft_ndarray_load_from_buffer(const void* buf, size_t size, int* n, weft_ndarray*** arrays,
                                           int* num_keys, const char*** keys);

/* ---- operators -------------------------------------------------------- */
/* Canonical operator names, sorted; valid until the next call on this thread. */
WEFT_API int weft_op_list(int* n, const char*** names);
/* The registry entry by name or alias; the handle is static (never freed). */
WEFT_API int weft_op_find(const char* name, const weft_op** out);
/* Schema JSON: {"name","aliases","doc","params":[{name,type,default,required,allowed,doc}],
 * "inputs","variadic","num_outputs","outputs","mutate_inputs","inplace","fusion","needs_rng"}.
 * *json valid until the next call on this thread. */
WEFT_API int weft_op_schema(const weft_op* op, const char** json);
/* Runs op. Attributes are string pairs. If *num_outputs > 0 on entry, outputs
 * points to that many arrays written in place (out=). Otherwise on return
 * *outputs is a thread-local list of *num_outputs new handles owned by the caller. */
WEFT_API int weft_op_invoke(const weft_op* op, int num_inputs, weft_ndarray* const* inputs,
                            int* num_outputs, weft_ndarray*** outputs, int num_attrs,
                            const char* const* keys, const char* const* vals);
/* ---- symbols (graph front end) ---------------------------------------- */
/* A variable node. *out is owned by the caller: weft_symbol_free. */
WEFT_API int weft_symbol_create_variable(const char* name, weft_symbol** out);
/* Accepts NULL. */
WEFT_API void weft_symbol_free(weft_symbol* sym);
/* Applies op to inputs: args positionally, then kw_args by input name; missing
 * inputs become variables "<name>_<input>". Each input must have one output. */
WEFT_API int weft_symbol_compose(const weft_op* op, const char* name, int num_attrs, const char* const* keys,
                                 const char* const* vals, int num_args, weft_symbol* const* args,
                                 int num_kwargs, const char* const* kw_names, weft_symbol* const* kw_args,
                                 weft_symbol** out);
WEFT_API int weft_symbol_group(int n, weft_symbol* const* symbols, weft_symbol** out);
WEFT_API int weft_symbol_num_outputs(const weft_symbol* sym, int* n);
WEFT_API int weft_symbol_get_output(const weft_symbol* sym, int index, weft_symbol** out);
WEFT_API int weft_symbol_get_internals(const weft_symbol* sym, weft_symbol** out);
WEFT_API int weft_symbol_get_children(const weft_symbol* sym, weft_symbol** out);
WEFT_API int weft_symbol_copy(const weft_symbol* sym, weft_symbol** out);
/* which: 0 arguments, 1 outputs, 2 auxiliary states, 3 all inputs. Names are
 * valid until the next call on this thread. */
WEFT_API int weft_symbol_list(const weft_symbol* sym, int which, int* n, const char*** names);
/* Head node name, "" when the symbol has several head nodes. */
WEFT_API int weft_symbol_name(const weft_symbol* sym, const char** name);
/* *found is 0 when the head node has no such attribute. */
WEFT_API int weft_symbol_get_attr(const weft_symbol* sym, const char* key, const char** value, int* found);
WEFT_API int weft_symbol_set_attr(weft_symbol* sym, const char* key, const char* value);
/* recursive 0: the head's attributes as 2*n strings key, value; recursive 1:
 * every node's, keys written "node$key" (MXNet's convention). */
WEFT_API int weft_symbol_list_attr(const weft_symbol* sym, int recursive, int* n, const char*** pairs);
/* MXNet 1.x JSON text (byte-compatible); valid until the next call on this thread. */
WEFT_API int weft_symbol_to_json(const weft_symbol* sym, const char** json);
WEFT_API int weft_symbol_from_json(const char* json, weft_symbol** out);
/* Shape inference. Given shapes by argument name (ndims[i] dims starting at
 * shape_data + offsets[i]). For each of arguments, outputs and auxiliary states
 * (in list order) the result gives n, then per item ndim (-1 when unknown) and
 * a pointer to its dims; all valid until the next call on this thread.
 * *complete is 1 when every shape is known; with partial == 0 an incomplete
 * result is an error naming the arguments still unknown. */
WEFT_API int weft_symbol_infer_shape(const weft_symbol* sym, int num_given, const char* const* names,
                                     const int* ndims, const int64_t* shape_data, const int64_t* offsets,
                                     int partial, int* complete,
                                     int* n_arg, const int** arg_ndims, const int64_t* const** arg_dims,
                                     int* n_out, const int** out_ndims, const int64_t* const** out_dims,
                                     int* n_aux, const int** aux_ndims, const int64_t* const** aux_dims);
/* Type inference: dtype flags by name; results as flags (-1 unknown). */
WEFT_API int weft_symbol_infer_type(const weft_symbol* sym, int num_given, const char* const* names,
                                    const int* dtypes, int* complete, int* n_arg, const int** arg_types,
                                    int* n_out, const int** out_types, int* n_aux, const int** aux_types);
/* ---- executors (bound graphs) ----------------------------------------- */
/* Binds sym on a device. args / arg_grads / grad_reqs (0 null, 1 write, 3 add)
 * follow list_arguments (arg_grads[i] may be NULL when grad_reqs[i] is 0); aux
 * follows list_auxiliary_states. The executor keeps references to the arrays. */
WEFT_API int weft_executor_bind(const weft_symbol* sym, int dev_type, int dev_id, int num_args,
                                weft_ndarray* const* args, weft_ndarray* const* arg_grads, const int* grad_reqs,
                                int num_aux, weft_ndarray* const* aux, weft_executor** out);
/* Accepts NULL. */
WEFT_API void weft_executor_free(weft_executor* exe);
WEFT_API int weft_executor_forward(weft_executor* exe, int is_train);
/* num_head_grads 0: ones for every output. */
WEFT_API int weft_executor_backward(weft_executor* exe, int num_head_grads, weft_ndarray* const* head_grads);
/* *outputs is a thread-local list of n new handles owned by the caller. */
WEFT_API int weft_executor_outputs(const weft_executor* exe, int* n, weft_ndarray*** outputs);
/* Bytes of the executor's internal arrays (not arguments, gradients, aux). */
WEFT_API int weft_executor_internal_bytes(const weft_executor* exe, int64_t* bytes);
/* Binds like weft_executor_bind and adds an in-graph optimizer update: after
 * the gradients, update_op (e.g. "sgd_update", "sgd_mom_update"; attributes
 * as key/value strings) writes every argument that has grad_req write, so one
 * forward + backward is a whole training step. States start at zero. */
WEFT_API int weft_executor_bind_update(const weft_symbol* sym, int dev_type, int dev_id, int num_args,
                                       weft_ndarray* const* args, weft_ndarray* const* arg_grads,
                                       const int* grad_reqs, int num_aux, weft_ndarray* const* aux,
                                       const char* update_op, int num_attrs, const char* const* keys,
                                       const char* const* vals, weft_executor** out);
/* The steps with their inputs, outputs and storage, the memory plan and
 * "Total N MB allocated"; valid until the next call on this thread. */
WEFT_API int weft_executor_debug_str(const weft_executor* exe, const char** out);
/* Plans memory for sym as a bind would, without allocating: shapes given as in
 * weft_symbol_infer_shape (dtypes float32 unless the symbol says otherwise);
 * with for_training, every argument not given a shape gets a gradient. strategy:
 * "naive", "inplace", "coshare" or "both". stats[0..5]: planned bytes, lower
 * bound bytes, naive bytes, shared buffers, operator nodes, fused groups.
 * Counted: entries the plan places (not arguments, aux states, gradients of
 * arguments or graph outputs). */
WEFT_API int weft_symbol_plan_memory(const weft_symbol* sym, int num_given, const char* const* names,
                                     const int* ndims, const int64_t* shape_data, const int64_t* offsets,
                                     const char* strategy, int for_training, int64_t* stats);
/* Re-composition, MXNet's sym(*args, **kwargs): a copy of sym whose arguments
 * are replaced by single-output symbols, positionally (list_arguments order)
 * and by name. */
WEFT_API int weft_symbol_substitute(const weft_symbol* sym, int num_args, weft_symbol* const* args,
                                    int num_kwargs, const char* const* kw_names, weft_symbol* const* kw_args,
                                    weft_symbol** out);
/* ---- autograd (per thread, as in MXNet) --------------------------------- */
/* *prev (may be NULL) receives the previous value. */
WEFT_API int weft_autograd_set_recording(int on, int* prev);
WEFT_API int weft_autograd_set_training(int on, int* prev);
WEFT_API int weft_autograd_is_recording(int* on);
WEFT_API int weft_autograd_is_training(int* on);
/* attach_grad: vars[i] gets gradient array grads[i] (same shape and dtype) and
 * grad_reqs[i] (0 null, 1 write, 3 add). The handles are updated in place. */
WEFT_API int weft_autograd_mark_variables(int n, weft_ndarray* const* vars, const int* grad_reqs,
                                          weft_ndarray* const* grads);
/* Gradients of the heads (head_grads may be NULL, or hold NULL entries: ones).
 * num_vars 0: writes every marked variable's gradient by its grad_req and
 * returns *num_grads 0. Otherwise returns the gradients of vars as a
 * thread-local list of new handles (autograd.grad). */
WEFT_API int weft_autograd_backward(int num_heads, weft_ndarray* const* heads, weft_ndarray* const* head_grads,
                                    int num_vars, weft_ndarray* const* vars, int retain_graph, int create_graph,
                                    int is_train, int* num_grads, weft_ndarray*** grads);
/* A new handle to the same memory, off the tape. */
WEFT_API int weft_ndarray_detach(const weft_ndarray* a, weft_ndarray** out);
/* *on = 1 when the array is on the autograd tape (a marked variable or a recorded result). */
WEFT_API int weft_ndarray_on_tape(const weft_ndarray* a, int* on);
/* ---- cached ops (a symbol called like an operator; Gluon's hybridize) ---- */
/* flags: key/value strings (static_alloc, static_shape). */
WEFT_API int weft_cached_op_create(const weft_symbol* sym, int num_flags, const char* const* keys,
                                   const char* const* vals, weft_cached_op** out);
/* Accepts NULL. */
WEFT_API void weft_cached_op_free(weft_cached_op* op);
/* inputs follow the symbol's list_inputs; *outputs is a thread-local list of
 * new handles owned by the caller. Recorded by autograd when recording. */
WEFT_API int weft_cached_op_invoke(weft_cached_op* op, int num_inputs, weft_ndarray* const* inputs,
                                   int* num_outputs, weft_ndarray*** outputs);
/* Custom functions (autograd.Function). The front end computes the outputs
 * itself and records them with an id of its choosing; at backward, on the
 * thread calling weft_autograd_backward, `backward` gets the id and the output
 * gradients (borrowed handles) and must store num_in_grads new handles it gives
 * up into in_grads, returning 0 (non-zero: failure, reported by backward).
 * `release` is called when no recorded node refers to the id any more.
 * backward NULL unregisters both (a front end shutting down). */
typedef int (*weft_function_backward_fn)(int64_t id, int num_out_grads, weft_ndarray* const* out_grads,
                                         int num_in_grads, weft_ndarray** in_grads);
typedef void (*weft_function_release_fn)(int64_t id);
WEFT_API int weft_autograd_set_function_callbacks(weft_function_backward_fn backward,
                                                  weft_function_release_fn release);
/* Records outputs = function_id(inputs) on the tape when some input is on it
 * (the output handles are updated in place); otherwise release(id) is called. */
WEFT_API int weft_autograd_record_function(int64_t id, int num_inputs, weft_ndarray* const* inputs,
                                           int num_outputs, weft_ndarray* const* outputs);
/* ---- kvstore (parameter store; DESIGN.md "KVStore") -------------------- */
typedef struct weft_kvstore weft_kvstore;
/* type: "local", "device", "dist_sync", "dist_async" or "dist_device_sync".
 * Dist types connect to the job started by python -m weft.launch (WEFT_ROLE=worker
 * and the other WEFT_* / DMLC_* variables) and block until every node has
 * registered. *out is owned by the caller: weft_kvstore_free. */
WEFT_API int weft_kvstore_create(const char* type, weft_kvstore** out);
/* Accepts NULL. For a dist store it first leaves the job: waits for the other
 * workers to finish, then the scheduler stops the servers. */
WEFT_API void weft_kvstore_free(weft_kvstore* kv);
/* *type is valid until the handle is freed. */
WEFT_API int weft_kvstore_type(const weft_kvstore* kv, const char** type);
WEFT_API int weft_kvstore_rank(const weft_kvstore* kv, int* rank);
WEFT_API int weft_kvstore_num_workers(const weft_kvstore* kv, int* num_workers);
/* Keys are strings (int keys as their decimal text). A key may appear several
 * times in push and pull: copies on several devices, summed before the update
 * (push) or all written (pull). Push and pull are engine ops: they return at
 * once and the arrays' vars order them with other work. */
WEFT_API int weft_kvstore_init(weft_kvstore* kv, int num, const char* const* keys, weft_ndarray* const* values);
WEFT_API int weft_kvstore_push(weft_kvstore* kv, int num, const char* const* keys, weft_ndarray* const* values,
                               int priority);
WEFT_API int weft_kvstore_pull(weft_kvstore* kv, int num, const char* const* keys, weft_ndarray* const* outs,
                               int priority);
/* Push values then pull into outs (which may be the values). */
WEFT_API int weft_kvstore_pushpull(weft_kvstore* kv, int num_values, const char* const* value_keys,
                                   weft_ndarray* const* values, int num_outs, const char* const* out_keys,
                                   weft_ndarray* const* outs, int priority);
/* Local stores: called during push with the key, the reduced gradient and the
 * stored weight (new handles owned by the callee: weft_ndarray_free them); it
 * must update the weight in place and return 0 (non-zero fails the push).
 * fn NULL removes the updater (the store then keeps the sum of the pushes). */
typedef int (*weft_kvstore_updater_fn)(const char* key, weft_ndarray* recv, weft_ndarray* stored, void* user_data);
WEFT_API int weft_kvstore_set_updater(weft_kvstore* kv, weft_kvstore_updater_fn fn, void* user_data);
/* Dist stores: the optimizer the servers run, as JSON {"name": "sgd",
 * "learning_rate": 0.1, ...} (never code; see core/kvstore/server_optimizer.h). */
WEFT_API int weft_kvstore_set_optimizer(weft_kvstore* kv, const char* optimizer_json);
/* Waits until every worker has reached the barrier (local stores: returns at once). */
WEFT_API int weft_kvstore_barrier(weft_kvstore* kv);
/* The role of this process from WEFT_ROLE / DMLC_ROLE: "worker", "server",
 * "scheduler", or "" when unset. Static storage. */
WEFT_API int weft_kvstore_role(const char** role);
/* Runs this process's scheduler or server (by WEFT_ROLE) until the job ends;
 * *exit_status is 0 after a clean end, 1 when a node died. */
WEFT_API int weft_kvstore_run_node(int* exit_status);
/* ---- DLPack (zero-copy exchange with NumPy, PyTorch, CuPy) -------------- */
/* The managed tensors are DLPack's DLManagedTensor (unversioned, the Python
 * capsule "dltensor"), whose layout weft/dlpack.h restates as
 * weft_dl_managed_tensor; void* keeps that foreign struct out of this header.
 * Devices: cpu -> kDLCPU, cpu_pinned -> kDLCUDAHost, gpu(i) -> kDLCUDA i.
 * dtypes: float16/32/64, bfloat16, int8/32/64, uint8, bool (kDLBool, 8 bits). */
/* Waits for pending writes of arr, then *out_managed_tensor views its memory
 * (compact row-major strides given). The tensor keeps the memory alive and is
 * owned by the caller: call its deleter exactly once when done. */
WEFT_API int weft_ndarray_to_dlpack(const weft_ndarray* arr, void** out_managed_tensor);
/* A new array over the tensor's memory, no copy. On success the array owns
 * managed_tensor (its deleter runs once the array and its views are freed and
 * their pending ops have finished, possibly on an engine thread); on failure
 * it is untouched and still the caller's. Only compact row-major tensors
 * (size-1 axes may have any stride) of the dtypes above on kDLCPU,
 * kDLCUDAHost or (CUDA builds) kDLCUDA are accepted. *out: weft_ndarray_free. */
WEFT_API int weft_ndarray_from_dlpack(void* managed_tensor, weft_ndarray** out);
/* Like weft_ndarray_to_dlpack, as a DLPack 1.0 DLManagedTensorVersioned
 * (weft_dl_managed_tensor_versioned; capsule "dltensor_versioned"): version
 * 1.0, flags 0 (writable). NumPy makes arrays from unversioned tensors read-only. */
WEFT_API int weft_ndarray_to_dlpack_versioned(const weft_ndarray* arr, void** out_managed_tensor);
/* ---- GPU devices ------------------------------------------------------- */
/* Number of usable GPU devices: CUDA devices in a CUDA build (0 without a
 * device or driver); in a build without CUDA, the count set by
 * WEFT_GPU_EMULATE (host emulation of the GPU path, for tests), else 0.
 * *backend: "cuda" or "emulated", static storage. */
WEFT_API int weft_gpu_device_count(int* out, const char** backend);
/* ---- autograd, continued ---------------------------------------------- */
/* MXNet's fresh_out_grad: *fresh = 1 when a backward wrote var's gradient
 * since the flag was last set to 0; 0 for an array with no gradient attached.
 * gluon.Trainer clears it after each update to find stale gradients. Setting
 * it on an array with no gradient attached is an error. */
WEFT_API int weft_autograd_get_fresh_grad(const weft_ndarray* var, int* fresh);
WEFT_API int weft_autograd_set_fresh_grad(const weft_ndarray* var, int fresh);
/* WEFT-CDEF-END */

#ifdef __cplusplus
}
#endif
#endif /* WEFT_C_API_H_ */
