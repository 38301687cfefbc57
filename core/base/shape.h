// Shapes are int64 dims from day one (docs/STYLE.md: not MXNet's 32-bit TShape).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace weft {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> d) : dims_(d) {}
  explicit Shape(std::vector<int64_t> d) : dims_(std::move(d)) {}
  template <typename It>
  Shape(It b, It e) : dims_(b, e) {}

  int ndim() const { return static_cast<int>(dims_.size()); }
  int64_t operator[](int i) const { return dims_[static_cast<size_t>(i)]; }
  int64_t& operator[](int i) { return dims_[static_cast<size_t>(i)]; }
  const int64_t* data() const { return dims_.data(); }
  const std::vector<int64_t>& dims() const { return dims_; }
  std::vector<int64_t>& dims() { return dims_; }
  void push_back(int64_t d) { dims_.push_back(d); }

  // Number of elements; 1 for a 0-d shape. Throws kShape when the product
  // overflows int64 (Note [Checked shape arithmetic], core/base/checked_math.h).
  int64_t Size() const { return ProdRange(0, ndim()); }
  // Product of dims in [begin, end), checked the same way.
  int64_t ProdRange(int begin, int end) const {
    int64_t n = 1;
    for (int i = begin; i < end; ++i) {
      if (__builtin_mul_overflow(n, dims_[static_cast<size_t>(i)], &n)) ThrowSizeOverflow();
    }
    return n;
  }
  // Python tuple text as MXNet prints it: "(2, 3)", "(4,)", "()".
  std::string ToString() const;  // "?" for an unknown shape
  // Parses "(2, 3)", "[2,3]", "2,3", "(4,)", "()" and "None"-free ints; throws kInvalidArgument.
  static Shape Parse(const std::string& s);

  // During inference a shape may be unknown (distinct from a 0-d shape).
  static Shape Unknown() {
    Shape s;
    s.known_ = false;
    return s;
  }
  bool known() const { return known_; }

  // Throws kShape naming this shape (out of line: shape.h stays light).
  [[noreturn]] void ThrowSizeOverflow() const;

  bool operator==(const Shape& o) const { return known_ == o.known_ && dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  std::vector<int64_t> dims_;
  bool known_ = true;
};

}  // namespace weft
