/* Weft predict API: the small inference-only subset of the C ABI that the Go
 * server, other embedders and the dependency-free predictor build use.
 * Conventions are those of c_api.h:
 *  - every fallible call returns int: 0 on success, nonzero on failure, and
 *    weft_last_error() gives this thread's message;
 *  - shapes are int64_t; dtypes use MXNet's flags (0 float32, 1 float64,
 *    2 float16, 3 uint8, 4 int32, 5 int8, 6 int64, 7 bool, 12 bfloat16);
 *    devices use dev_type 1 cpu, 2 gpu and an index;
 *  - strings/arrays returned stay valid until the predictor is freed or
 *    reshaped (each comment says when it differs);
 *  - one predictor is used by one thread at a time; distinct predictors may
 *    be used from distinct threads concurrently (a server keeps a pool);
 *  - the ABI is append-only.
 * This header compiles as C99 on its own (it does not need c_api.h). */
#ifndef WEFT_C_PREDICT_API_H_
#define WEFT_C_PREDICT_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef WEFT_API
#define WEFT_API __attribute__((visibility("default")))
#endif

/* WEFT-PRED-CDEF-BEGIN */
typedef struct weft_predictor weft_predictor;

/* The message of the last failed call on this thread (never NULL). The same
 * function as in c_api.h. */
WEFT_API const char* weft_last_error(void);

/* Creates a predictor.
 *  symbol_json: the text of a prefix-symbol.json (MXNet 1.x format);
 *  param_bytes/param_size: the bytes of a prefix-NNNN.params file (keys may
 *    carry "arg:"/"aux:" prefixes, as Module/export write them, or none); may be
 *    NULL/0 when the graph has no parameters;
 *  dev_type/dev_id: the device;
 *  num_inputs, input_names: the graph's data inputs (the variables that are not
 *    parameters), e.g. {"data"};
 *  input_shape_indptr[num_inputs + 1], input_shape_data: the shapes in CSR
 *    form; input i has dims input_shape_data[indptr[i] .. indptr[i+1]).
 * Inputs are float32 unless the symbol's __dtype__ attribute says otherwise.
 * Every other variable must be found in the parameter file (an error names the
 * missing one), except a loss's label (a variable read only as the "label"
 * input of an output such as SoftmaxOutput), which is bound to zeros as in
 * MXNet's predict API, so checkpoints saved with their loss load as they are;
 * a parameter whose shape differs from the inferred one is an error naming it
 * and both shapes. *out: weft_pred_free. */
WEFT_API int weft_pred_create(const char* symbol_json, const void* param_bytes, size_t param_size,
                              int dev_type, int dev_id, int num_inputs, const char** input_names,
                              const int64_t* input_shape_indptr, const int64_t* input_shape_data,
                              weft_predictor** out);

/* As weft_pred_create, but the outputs are the named entries instead of the
 * symbol's heads: an internal output name as get_internals() lists it
 * ("fc1_output", "relu1_output"), or a node name (its first output). Only what
 * those outputs need is computed (feature extraction). */
WEFT_API int weft_pred_create_partial(const char* symbol_json, const void* param_bytes, size_t param_size,
                                      int dev_type, int dev_id, int num_inputs, const char** input_names,
                                      const int64_t* input_shape_indptr, const int64_t* input_shape_data,
                                      int num_outputs, const char** output_names, weft_predictor** out);

/* A new predictor for new input shapes that shares the parameters (no copy)
 * of `pred`, which stays valid. Inputs not named keep their shapes. *out:
 * weft_pred_free. */
WEFT_API int weft_pred_reshape(weft_predictor* pred, int num_inputs, const char** input_names,
                               const int64_t* input_shape_indptr, const int64_t* input_shape_data,
                               weft_predictor** out);

/* Releases the predictor after its pending work. Accepts NULL. */
WEFT_API void weft_pred_free(weft_predictor* pred);

/* ---- inputs ----------------------------------------------------------- */
WEFT_API int weft_pred_num_inputs(weft_predictor* pred, int* out);
/* Name of input i; valid while pred lives. */
WEFT_API int weft_pred_input_name(weft_predictor* pred, int index, const char** out);
/* Shape of input i; *shape valid while pred lives. */
WEFT_API int weft_pred_input_shape(weft_predictor* pred, int index, const int64_t** shape, int* ndim);
WEFT_API int weft_pred_input_dtype(weft_predictor* pred, int index, int* dtype);

/* Copies host data into the named input. nbytes must equal the input's
 * element count times its dtype size (an error names the input and both
 * sizes). */
WEFT_API int weft_pred_set_input(weft_predictor* pred, const char* name, const void* data, size_t nbytes);

/* ---- run -------------------------------------------------------------- */
/* Runs the graph (inference mode). Returns when the outputs are computed; an
 * operator error is returned here with the operator's name. */
WEFT_API int weft_pred_forward(weft_predictor* pred);

/* ---- outputs ---------------------------------------------------------- */
WEFT_API int weft_pred_num_outputs(weft_predictor* pred, int* out);
/* Name of output i (e.g. "softmax_output"); valid while pred lives. */
WEFT_API int weft_pred_output_name(weft_predictor* pred, int index, const char** out);
/* Shape of output i; *shape valid while pred lives. */
WEFT_API int weft_pred_output_shape(weft_predictor* pred, int index, const int64_t** shape, int* ndim);
WEFT_API int weft_pred_output_dtype(weft_predictor* pred, int index, int* dtype);
/* Copies output i to host memory of nbytes (element count times dtype size;
 * an error names the output and both sizes). Waits for forward's work. */
WEFT_API int weft_pred_get_output(weft_predictor* pred, int index, void* data, size_t nbytes);
/* ---- run on the calling thread --------------------------------------- */
/* As weft_pred_forward, but the operators run on the calling thread instead of
 * being handed to the engine's CPU worker (GPU operators still go to their
 * streams), each with at most max_threads OpenMP threads (0: the process's
 * kernel team size, which also caps any larger value). For servers that call
 * from several threads at once: n requests then compute on their own n
 * threads rather than queueing on the one worker, and a cap of about the
 * kernel team size divided by n keeps their teams within the CPUs (Note
 * [Forward on the caller] in core/executor/predictor.cc). */
WEFT_API int weft_pred_forward_inline(weft_predictor* pred, int max_threads);
/* WEFT-PRED-CDEF-END */

#ifdef __cplusplus
}
#endif

#endif /* WEFT_C_PREDICT_API_H_ */
