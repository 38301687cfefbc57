// JPEG through libjpeg-turbo's libjpeg API (Note [Image decoders] in
// image_decode.h).
//
// Note [JPEG truncation]
// ~~~~~~~~~~~~~~~~~~~~~~
// libjpeg does not fail on a file that stops short: its memory source reports
// the warning JWRN_JPEG_EOF ("Premature end of JPEG file") and feeds a fake
// end-of-image marker, and the entropy decoder, finding a marker where it
// needed data, reports JWRN_HIT_MARKER ("premature end of data segment") and
// fills the rest of the image with grey. OpenCV keeps such an image, which is
// how a 1.4 KB file that claims 16384x16384 pixels became a training sample.
// Our error manager stops the decode at either warning and the sample is
// refused as corrupt, naming the file and record; so a JPEG that lacks only
// its final marker is refused too (libjpeg cannot tell it from a cut one
// until it has decoded the last row). Other warnings (extraneous bytes before
// a marker, which some of ImageNet's files carry) keep the image, as OpenCV
// and MXNet do.
//
// libjpeg reports errors by calling error_exit, which must not return; ours
// longjmps back to the step that called libjpeg. Each step is a function whose
// frame holds no object with a destructor (a longjmp would skip it), and the
// decompressor is destroyed by its owner's destructor once the step returned.
// A progress monitor bounds the number of scans (kMaxJpegScans).
#include <csetjmp>
#include <cstdio>
#include <cstring>

// jpeglib.h needs FILE and size_t declared before it; jerror.h comes after it.
#include <jpeglib.h>
#include <jerror.h>

#include "core/base/error.h"
#include "core/io/image_budget.h"
#include "core/io/image_codecs.h"

namespace weft {
namespace io {
namespace {

// A progressive JPEG has about 10 scans; each scan visits every block, so a
// file of thousands of tiny scans is a CPU bomb. weft.image refuses the same
// (header.py, _MAX_JPEG_SCANS).
constexpr int kMaxJpegScans = 256;

// libjpeg's state and ours; destroying it frees libjpeg's memory, also when
// the decoder that holds it throws from its constructor.
struct JpegState {
  jpeg_decompress_struct cinfo;
  jpeg_error_mgr err;
  jpeg_progress_mgr progress;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  bool truncated = false, created = false;
  JpegState() = default;
  JpegState(const JpegState&) = delete;
  JpegState& operator=(const JpegState&) = delete;
  ~JpegState() {
    if (created) jpeg_destroy_decompress(&cinfo);
  }
};

JpegState* StateOf(j_common_ptr cinfo) { return static_cast<JpegState*>(cinfo->client_data); }

[[noreturn]] void JpegFail(j_common_ptr cinfo) {
  JpegState* s = StateOf(cinfo);
  (*cinfo->err->format_message)(cinfo, s->message);
  std::longjmp(s->jump, 1);
}

void JpegMessage(j_common_ptr cinfo, int level) {
  if (level >= 0) return;  // trace messages
  const int code = cinfo->err->msg_code;
  if (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER) {  // Note [JPEG truncation]
    StateOf(cinfo)->truncated = true;
    JpegFail(cinfo);
  }
  ++cinfo->err->num_warnings;  // kept, as OpenCV does
}

void JpegProgress(j_common_ptr cinfo) {
  auto* d = reinterpret_cast<j_decompress_ptr>(cinfo);
  if (d->input_scan_number > kMaxJpegScans) {
    std::snprintf(StateOf(cinfo)->message, JMSG_LENGTH_MAX, "more than %d scans", kMaxJpegScans);
    std::longjmp(StateOf(cinfo)->jump, 1);
  }
}

// The steps: each returns false, with s->message set, when libjpeg gave up.
// Nothing with a destructor lives in their frames (Note [JPEG truncation]).
bool JpegCreate(JpegState* s) {
  if (setjmp(s->jump)) return false;
  jpeg_create_decompress(&s->cinfo);
  s->created = true;
  return true;
}

bool JpegReadHeader(JpegState* s, const uint8_t* data, size_t size) {
  if (setjmp(s->jump)) return false;
  jpeg_mem_src(&s->cinfo, data, static_cast<unsigned long>(size));
  jpeg_read_header(&s->cinfo, TRUE);
  return true;
}

bool JpegStart(JpegState* s, int scale_num, int channels) {
  if (setjmp(s->jump)) return false;
  s->cinfo.scale_num = static_cast<unsigned int>(scale_num);
  s->cinfo.scale_denom = 8;
  s->cinfo.out_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
  s->cinfo.dct_method = JDCT_ISLOW;     // OpenCV's and TurboJPEG's default
  s->cinfo.do_fancy_upsampling = TRUE;  // likewise
  // A progressive file is read to its end here, before our output exists.
  jpeg_start_decompress(&s->cinfo);
  return true;
}

bool JpegReadRows(JpegState* s, uint8_t* pixels, size_t row_bytes) {
  if (setjmp(s->jump)) return false;
  while (s->cinfo.output_scanline < s->cinfo.output_height) {
    JSAMPROW row = pixels + s->cinfo.output_scanline * row_bytes;
    jpeg_read_scanlines(&s->cinfo, &row, 1);
  }
  // Every row is decoded; reading on to the end-of-image marker (what
  // jpeg_finish_decompress does) adds nothing.
  return true;
}

class JpegDecoder {
 public:
  JpegDecoder(const uint8_t* data, size_t size, const std::string& where) : where_(where) {
    std::memset(&s_.cinfo, 0, sizeof(s_.cinfo));
    s_.cinfo.err = jpeg_std_error(&s_.err);
    s_.cinfo.client_data = &s_;  // kept by jpeg_create_decompress
    s_.err.error_exit = JpegFail;
    s_.err.emit_message = JpegMessage;
    s_.progress.progress_monitor = JpegProgress;
    s_.message[0] = '\0';
    Check(JpegCreate(&s_));
    s_.cinfo.progress = &s_.progress;
    Check(JpegReadHeader(&s_, data, size));
  }

  void Check(bool ok) {
    if (ok) return;
    if (s_.truncated)
      WEFT_THROW(kIO) << where_ << ": corrupt JPEG: its data ends before the image does (truncated; libjpeg: "
                      << s_.message << ")";
    WEFT_THROW(kIO) << where_ << ": corrupt JPEG: " << s_.message;
  }
  int height() const { return static_cast<int>(s_.cinfo.image_height); }
  int width() const { return static_cast<int>(s_.cinfo.image_width); }
  JpegState* state() { return &s_; }

 private:
  JpegState s_;
  const std::string& where_;
};

}  // namespace

void JpegSize(const uint8_t* data, size_t size, int64_t max_pixels, const std::string& where, int* height,
              int* width) {
  JpegDecoder d(data, size, where);
  CheckImagePixels("JPEG", d.height(), d.width(), max_pixels, where);
  *height = d.height();
  *width = d.width();
}

void DecodeJpeg(const uint8_t* data, size_t size, int channels, int64_t max_pixels, const std::string& where,
                Image* out, int scale_num) {
  JpegDecoder d(data, size, where);
  CheckImagePixels("JPEG", d.height(), d.width(), max_pixels, where);
  JpegState* s = d.state();
  d.Check(JpegStart(s, scale_num, channels));
  WEFT_CHECK(s->cinfo.output_components == channels, kIO)
      << where << ": corrupt JPEG: decodes to " << s->cinfo.output_components << " channels, not " << channels;
  out->Allocate(static_cast<int>(s->cinfo.output_height), static_cast<int>(s->cinfo.output_width), channels);
  d.Check(JpegReadRows(s, out->pixels.data(), static_cast<size_t>(out->width) * channels));
}

}  // namespace io
}  // namespace weft
