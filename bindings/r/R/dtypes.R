# dtype names <-> the C ABI's MXNet flags.
.weft_dtype_flags <- c(float32 = 0L, float64 = 1L, float16 = 2L, uint8 = 3L, int32 = 4L,
                       int8 = 5L, int64 = 6L, bool = 7L, bfloat16 = 12L)

.weft_dtype_flag <- function(dtype) {
  flag <- .weft_dtype_flags[dtype]
  if (length(dtype) != 1 || is.na(flag)) {
    .weft_stop("unknown dtype '", paste(dtype, collapse = ","), "'; expected one of ",
               paste(names(.weft_dtype_flags), collapse = ", "))
  }
  unname(flag)
}

.weft_dtype_name <- function(flag) names(.weft_dtype_flags)[match(flag, .weft_dtype_flags)]
