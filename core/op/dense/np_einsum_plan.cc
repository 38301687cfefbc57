#include "core/op/dense/np_einsum_plan.h"

#include <map>

#include "core/base/error.h"

namespace weft {
namespace tensor {
// Helpers in a named namespace: the unity build compiles the family's files in
// one translation unit.
namespace einsum_geom {

// A term's characters after the spaces NumPy ignores.
std::string Squeezed(const std::string& s) {
  std::string r;
  for (char c : s)
    if (c != ' ') r += c;
  return r;
}

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A term's letters before and after its `...` (has_ellipsis false: all in `head`).
struct Term {
  std::string head, tail;
  bool has_ellipsis = false;
};

Term SplitTerm(const std::string& op, const std::string& subscripts, const std::string& t, const char* what) {
  Term r;
  const size_t e = t.find("...");
  r.has_ellipsis = e != std::string::npos;
  r.head = r.has_ellipsis ? t.substr(0, e) : t;
  r.tail = r.has_ellipsis ? t.substr(e + 3) : "";
  for (const std::string* part : {&r.head, &r.tail})
    for (char c : *part)
      WEFT_CHECK(IsLetter(c), kInvalidArgument)
          << op << ": subscripts '" << subscripts << "': " << what << " term '" << t << "' holds '" << c
          << "' (letters and one '...' only)";
  return r;
}

// Label ids: the `...` dimensions first (0 .. nell-1), then letters as met.
struct Labels {
  int nell = 0;
  std::map<char, int> letter;
  std::vector<int64_t> len;  // -1: not yet seen
  int Of(char c) {
    auto it = letter.find(c);
    if (it != letter.end()) return it->second;
    const int id = static_cast<int>(len.size());
    letter[c] = id;
    len.push_back(-1);
    return id;
  }
};

}  // namespace einsum_geom

EinsumSpec ParseEinsum(const std::string& op, const std::string& subscripts, const std::vector<Shape>& ins) {
  using namespace einsum_geom;
  const std::string s = Squeezed(subscripts);
  const size_t arrow = s.find("->");
  const bool explicit_out = arrow != std::string::npos;
  const std::string lhs = explicit_out ? s.substr(0, arrow) : s;
  const std::string rhs = explicit_out ? s.substr(arrow + 2) : "";
  WEFT_CHECK(rhs.find("->") == std::string::npos, kInvalidArgument)
      << op << ": subscripts '" << subscripts << "' hold '->' more than once";
  std::vector<std::string> terms(1);
  for (char c : lhs) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  WEFT_CHECK(terms.size() == ins.size(), kInvalidArgument)
      << op << ": subscripts '" << subscripts << "' name " << terms.size() << " operands, " << ins.size()
      << " were given";
  WEFT_CHECK(ins.size() < static_cast<size_t>(kEinsumMaxInputs), kInvalidArgument)
      << op << ": too many operands (" << ins.size() << "; fewer than " << kEinsumMaxInputs << ", as MXNet)";

  std::vector<Term> split;
  int nell = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    split.push_back(SplitTerm(op, subscripts, terms[k], "input"));
    const Term& t = split.back();
    const int named = static_cast<int>(t.head.size() + t.tail.size());
    const int nd = ins[k].ndim();
    WEFT_CHECK(t.has_ellipsis ? named <= nd : named == nd, kShape)
        << op << ": subscripts '" << subscripts << "': term '" << terms[k] << "' does not fit operand " << k
        << " of shape " << ins[k].ToString() << " (" << nd << " dimensions)";
    if (t.has_ellipsis && nd - named > nell) nell = nd - named;
  }
  Labels labels;
  labels.nell = nell;
  labels.len.assign(static_cast<size_t>(nell), -1);

  EinsumSpec spec;
  for (size_t k = 0; k < terms.size(); ++k) {
    const Term& t = split[k];
    const int nd = ins[k].ndim();
    const int covered = nd - static_cast<int>(t.head.size() + t.tail.size());
    std::vector<int> ids;
    for (char c : t.head) ids.push_back(labels.Of(c));
    for (int e = nell - covered; e < nell; ++e) ids.push_back(e);  // `...` aligned from the right
    for (char c : t.tail) ids.push_back(labels.Of(c));
    for (int d = 0; d < nd; ++d) {
      int64_t& len = labels.len[static_cast<size_t>(ids[static_cast<size_t>(d)])];
      const int64_t n = ins[k][d];
      if (len < 0 || len == 1) {
        len = n;
      } else {
        WEFT_CHECK(n == 1 || n == len, kShape)
            << op << ": subscripts '" << subscripts << "': dimension " << d << " of operand " << k << " (shape "
            << ins[k].ToString() << ") has length " << n << " where an earlier term's has " << len;
      }
    }
    spec.in_labels.push_back(ids);
  }
  WEFT_CHECK(labels.len.size() <= static_cast<size_t>(kEinsumMaxLabels), kInvalidArgument)
      << op << ": subscripts '" << subscripts << "' use " << labels.len.size() << " labels (letters and '...' "
      << "dimensions); at most " << kEinsumMaxLabels << " are supported";

  if (explicit_out) {
    const Term t = SplitTerm(op, subscripts, rhs, "output");
    WEFT_CHECK(t.has_ellipsis || nell == 0, kInvalidArgument)
        << op << ": subscripts '" << subscripts << "': the inputs' '...' covers " << nell
        << " dimensions but the output has no '...'";
    std::string seen;
    for (const std::string* part : {&t.head, &t.tail}) {
      if (part == &t.tail)
        for (int e = 0; e < nell; ++e) spec.out_labels.push_back(e);
      for (char c : *part) {
        WEFT_CHECK(seen.find(c) == std::string::npos, kInvalidArgument)
            << op << ": subscripts '" << subscripts << "' name output subscript '" << c << "' more than once";
        WEFT_CHECK(labels.letter.count(c), kInvalidArgument)
            << op << ": subscripts '" << subscripts << "': output subscript '" << c << "' is in no input";
        seen += c;
        spec.out_labels.push_back(labels.letter[c]);
      }
    }
  } else {
    std::map<char, int> count;
    for (const Term& t : split)
      for (const std::string* part : {&t.head, &t.tail})
        for (char c : *part) ++count[c];
    for (int e = 0; e < nell; ++e) spec.out_labels.push_back(e);
    for (const auto& kv : count)  // std::map: character order, upper case first (NumPy's)
      if (kv.second == 1) spec.out_labels.push_back(labels.letter[kv.first]);
  }
  for (int64_t& n : labels.len)
    if (n < 0) n = 1;  // a `...` dimension no operand covers this far left
  std::vector<int64_t> out;
  for (int l : spec.out_labels) out.push_back(labels.len[static_cast<size_t>(l)]);
  WEFT_CHECK(out.size() <= static_cast<size_t>(kEinsumMaxLabels), kInvalidArgument)
      << op << ": the output of '" << subscripts << "' has " << out.size() << " dimensions; at most "
      << kEinsumMaxLabels << " are supported";
  spec.len = labels.len;
  spec.out = Shape(out);
  return spec;
}

namespace einsum_geom {

// Adds operand `labels` of `shape` as input k: its stride per label (a length-1
// dimension broadcast against a longer label contributes none).
void AddInput(const std::vector<int>& labels, const Shape& shape, int k, EinsumGather* g) {
  int64_t stride = 1;
  for (int d = shape.ndim() - 1; d >= 0; --d) {
    if (shape[d] != 1) g->stride[k][labels[static_cast<size_t>(d)]] += stride;
    stride *= shape[d];
  }
}

// The target's dimensions and the labels left to sum.
void SetTarget(const EinsumSpec& spec, const std::vector<int>& labels, const Shape& shape, EinsumGather* g) {
  g->ndim = shape.ndim();
  g->nlabels = static_cast<int>(spec.len.size());
  std::vector<char> fixed(spec.len.size(), 0);
  for (int d = 0; d < shape.ndim(); ++d) {
    const int l = labels[static_cast<size_t>(d)];
    const bool broadcast = shape[d] == 1 && spec.len[static_cast<size_t>(l)] != 1;
    g->dims[d] = shape[d];
    g->dim_label[d] = broadcast ? -1 : l;
    if (!broadcast) fixed[static_cast<size_t>(l)] = 1;
  }
  for (size_t l = 0; l < spec.len.size(); ++l) {
    if (fixed[l]) continue;
    g->sum_label[g->nsum] = static_cast<int>(l);
    g->sum_len[g->nsum] = spec.len[l];
    ++g->nsum;
  }
}

}  // namespace einsum_geom

EinsumGather EinsumForwardGather(const EinsumSpec& spec, const std::vector<Shape>& ins) {
  EinsumGather g;
  g.nin = static_cast<int>(ins.size());
  for (size_t k = 0; k < ins.size(); ++k)
    einsum_geom::AddInput(spec.in_labels[k], ins[k], static_cast<int>(k), &g);
  einsum_geom::SetTarget(spec, spec.out_labels, spec.out, &g);
  return g;
}

EinsumGather EinsumGradGather(const EinsumSpec& spec, const std::vector<Shape>& ins, size_t i) {
  WEFT_CHECK(spec.in_labels[i].size() <= static_cast<size_t>(kEinsumMaxLabels), kInvalidArgument)
      << "_backward_npi_einsum: operand " << i << " has " << ins[i].ndim() << " dimensions; at most "
      << kEinsumMaxLabels << " are supported";
  EinsumGather g;
  g.nin = static_cast<int>(ins.size());
  einsum_geom::AddInput(spec.out_labels, spec.out, 0, &g);
  int k = 1;
  for (size_t j = 0; j < ins.size(); ++j)
    if (j != i) einsum_geom::AddInput(spec.in_labels[j], ins[j], k++, &g);
  einsum_geom::SetTarget(spec, spec.in_labels[i], ins[i], &g);
  return g;
}

}  // namespace tensor
}  // namespace weft
