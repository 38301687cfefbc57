// weft-predict-portable: runs a model through the predict API (c_predict_api.h
// only). The command line of the dependency-free build (cmake/predict.cmake);
// it links against any build of the library.
//
//   weft-predict-portable --symbol net-symbol.json --params net-0000.params
//       --input x.f32 --shape 1,3,224,224 [--input-name data]
//       [--output y.f32] [--text] [--output-name NAME]... [--repeat N]
//
// The input file holds the raw little-endian float32 values of one input.
// Every output's name, shape and dtype is printed; --output writes the outputs'
// raw bytes one after another, --text prints their values. --repeat N runs
// forward N more times and prints the median latency.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "weft/c_predict_api.h"

namespace {

struct Options {
  std::string symbol, params, input, input_name = "data", output;
  std::vector<int64_t> shape;
  std::vector<std::string> output_names;
  bool text = false;
  int repeat = 0;
};

[[noreturn]] void Usage(const std::string& problem) {
  std::fprintf(stderr,
               "weft-predict-portable: %s\n"
               "usage: weft-predict-portable --symbol FILE --params FILE --input FILE --shape D0,D1,...\n"
               "         [--input-name NAME] [--output FILE] [--text] [--output-name NAME]... [--repeat N]\n",
               problem.c_str());
  std::exit(2);
}

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "weft-predict-portable: %s: %s\n", what.c_str(), weft_last_error());
  std::exit(1);
}

std::vector<int64_t> ParseShape(const std::string& text) {
  std::vector<int64_t> dims;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    char* end = nullptr;
    long long d = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || d < 0) Usage("bad --shape '" + text + "' (expected e.g. 1,3,224,224)");
    dims.push_back(d);
  }
  if (dims.empty()) Usage("empty --shape");
  return dims;
}

Options Parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--symbol") o.symbol = value();
    else if (a == "--params") o.params = value();
    else if (a == "--input") o.input = value();
    else if (a == "--input-name") o.input_name = value();
    else if (a == "--shape") o.shape = ParseShape(value());
    else if (a == "--output") o.output = value();
    else if (a == "--output-name") o.output_names.push_back(value());
    else if (a == "--text") o.text = true;
    else if (a == "--repeat") {
      const std::string v = value();
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 0 || n > 1000000) Usage("bad --repeat '" + v + "'");
      o.repeat = static_cast<int>(n);
    } else {
      Usage("unknown argument '" + a + "'");
    }
  }
  if (o.symbol.empty() || o.params.empty() || o.input.empty() || o.shape.empty())
    Usage("--symbol, --params, --input and --shape are required");
  return o;
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "weft-predict-portable: cannot open '%s'\n", path.c_str());
    std::exit(1);
  }
  f.seekg(0, std::ios::end);
  std::string data(static_cast<size_t>(f.tellg()), '\0');
  f.seekg(0, std::ios::beg);
  if (!f.read(&data[0], static_cast<std::streamsize>(data.size()))) {
    std::fprintf(stderr, "weft-predict-portable: cannot read '%s'\n", path.c_str());
    std::exit(1);
  }
  return data;
}

size_t DTypeSize(int flag) {
  switch (flag) {
    case 0: case 4: return 4;
    case 1: case 6: return 8;
    case 2: case 12: return 2;
    case 3: case 5: case 7: return 1;
    default: return 0;
  }
}

std::string ShapeText(const int64_t* shape, int ndim) {
  std::string s = "(";
  for (int i = 0; i < ndim; ++i) s += std::to_string(shape[i]) + (ndim == 1 ? "," : i + 1 < ndim ? ", " : "");
  return s + ")";
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = Parse(argc, argv);
  const std::string symbol = ReadFile(o.symbol), params = ReadFile(o.params), input = ReadFile(o.input);

  const char* in_names[1] = {o.input_name.c_str()};
  const int64_t indptr[2] = {0, static_cast<int64_t>(o.shape.size())};
  std::vector<const char*> out_names;
  for (const std::string& n : o.output_names) out_names.push_back(n.c_str());
  weft_predictor* pred = nullptr;
  const int rc = out_names.empty()
                     ? weft_pred_create(symbol.c_str(), params.data(), params.size(), 1, 0, 1, in_names, indptr,
                                        o.shape.data(), &pred)
                     : weft_pred_create_partial(symbol.c_str(), params.data(), params.size(), 1, 0, 1, in_names,
                                                indptr, o.shape.data(), static_cast<int>(out_names.size()),
                                                out_names.data(), &pred);
  if (rc != 0) Fail("cannot create the predictor");
  int dtype = -1;
  if (weft_pred_input_dtype(pred, 0, &dtype) != 0) Fail("input dtype");
  if (dtype != 0) {
    std::fprintf(stderr, "weft-predict-portable: input '%s' has dtype flag %d; this tool feeds float32 only\n",
                 o.input_name.c_str(), dtype);
    return 1;
  }
  if (weft_pred_set_input(pred, o.input_name.c_str(), input.data(), input.size()) != 0)
    Fail("input file '" + o.input + "'");
  if (weft_pred_forward(pred) != 0) Fail("forward");

  int num_outputs = 0;
  if (weft_pred_num_outputs(pred, &num_outputs) != 0) Fail("outputs");
  std::ofstream out;
  if (!o.output.empty()) {
    out.open(o.output, std::ios::binary);
    if (!out) {
      std::fprintf(stderr, "weft-predict-portable: cannot write '%s'\n", o.output.c_str());
      return 1;
    }
  }
  for (int i = 0; i < num_outputs; ++i) {
    const char* name = nullptr;
    const int64_t* shape = nullptr;
    int ndim = 0, odtype = -1;
    if (weft_pred_output_name(pred, i, &name) != 0 || weft_pred_output_shape(pred, i, &shape, &ndim) != 0 ||
        weft_pred_output_dtype(pred, i, &odtype) != 0)
      Fail("output " + std::to_string(i));
    int64_t count = 1;
    for (int d = 0; d < ndim; ++d) count *= shape[d];
    std::vector<char> bytes(static_cast<size_t>(count) * DTypeSize(odtype));
    if (weft_pred_get_output(pred, i, bytes.data(), bytes.size()) != 0) Fail("output " + std::to_string(i));
    std::printf("output %d %s shape %s dtype %d\n", i, name, ShapeText(shape, ndim).c_str(), odtype);
    if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (o.text && odtype == 0) {
      const float* v = reinterpret_cast<const float*>(bytes.data());
      for (int64_t j = 0; j < count; ++j) std::printf("%.9g%c", v[j], j + 1 == count ? '\n' : ' ');
    }
  }
  if (out) {
    out.close();
    if (!out) {
      std::fprintf(stderr, "weft-predict-portable: writing '%s' failed\n", o.output.c_str());
      return 1;
    }
  }

  if (o.repeat > 0) {
    std::vector<double> ms;
    for (int r = 0; r < o.repeat; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      if (weft_pred_forward(pred) != 0) Fail("forward");
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("latency median %.3f ms (min %.3f, max %.3f) over %d runs\n", ms[ms.size() / 2], ms.front(),
                ms.back(), o.repeat);
  }
  weft_pred_free(pred);
  return 0;
}
