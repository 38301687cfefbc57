/* Library errors as R conditions. The message is copied out of the library's
 * thread-local buffer before R code runs, and the condition is signalled by the
 * package's R function .weft_raise (R/errors.R) so that tryCatch(weftError = ...)
 * and conditionMessage() work as R users expect. */
#include <string.h>
#include "weft_r.h"

static SEXP g_namespace = NULL;

SEXP weft_r_init(SEXP ns) {
  if (g_namespace != NULL) R_ReleaseObject(g_namespace);
  g_namespace = ns;
  R_PreserveObject(g_namespace);
  return R_NilValue;
}

static const char* status_class(int status) {
  switch (status) {
    case WEFT_ERR_INVALID_ARGUMENT: return "weftInvalidArgumentError";
    case WEFT_ERR_SHAPE: return "weftShapeError";
    case WEFT_ERR_DTYPE: return "weftDTypeError";
    case WEFT_ERR_OUT_OF_MEMORY: return "weftOutOfMemoryError";
    case WEFT_ERR_NOT_FOUND: return "weftNotFoundError";
    case WEFT_ERR_ENGINE: return "weftEngineError";
    case WEFT_ERR_IO: return "weftIOError";
    default: return "weftInternalError";
  }
}

static void signal_weft_error(const char* klass, const char* message) {
  if (g_namespace == NULL) Rf_error("%s", message);  /* before .onLoad (doc generation) */
  SEXP msg = PROTECT(Rf_mkString(message));
  SEXP cls = PROTECT(Rf_mkString(klass));
  SEXP call = PROTECT(Rf_lang3(Rf_install(".weft_raise"), msg, cls));
  Rf_eval(call, g_namespace);  /* does not return */
  UNPROTECT(3);
}

void weft_r_check(int status) {
  if (status == 0) return;
  const char* text = weft_last_error();
  /* R_alloc'd copy: freed when the .Call returns, even through the longjmp. */
  char* message = R_alloc(strlen(text) + 1, 1);
  strcpy(message, text);
  signal_weft_error(status_class(status), message);
}

void weft_r_fail(const char* fmt, const char* detail) {
  char buf[1024];
  snprintf(buf, sizeof buf, fmt, detail);
  signal_weft_error("weftInvalidArgumentError", buf);
}
