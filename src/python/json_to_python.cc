// See json_to_python.h. One loop over the text: a value either opens a container (pushed on
// the explicit stack) or is a scalar; a finished value is added to the container on top, and
// a closing bracket turns that container into the next finished value.
#include "json_to_python.h"

#include <new>
#include <string>
#include <vector>

namespace proton::python {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Builder {
 public:
  explicit Builder(std::string_view text) : text_(text) {}
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;
  ~Builder() {
    for (const Frame& frame : stack_) {
      Py_DECREF(frame.container);
      Py_XDECREF(frame.key);
    }
    Py_XDECREF(memo_);
  }

  PyObject* Run();

 private:
  struct Frame {
    PyObject* container;  // owned: a dict or a list
    PyObject* key;        // owned: a dict's key waiting for its value
    bool is_dict;
  };

  PyObject* Fail() {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_ValueError, "malformed JSON document at offset %zu", pos_);
    }
    return nullptr;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool Open(PyObject** finished);
  bool ReadKey();
  bool AddToTop(PyObject* value);
  bool AfterValue(PyObject** finished);
  PyObject* Scalar();
  PyObject* Number();
  PyObject* String();
  PyObject* EscapedString(size_t start);
  bool Escape(std::vector<Py_UCS4>& out);
  bool HexQuad(Py_UCS4* out);

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<Frame> stack_;
  PyObject* memo_ = nullptr;  // one str per distinct key, as json.loads shares them
};

PyObject* Builder::Run() {
  memo_ = PyDict_New();
  if (memo_ == nullptr) return nullptr;
  PyObject* finished = nullptr;
  for (;;) {
    if (finished == nullptr) {
      SkipSpace();
      const char c = Peek();
      if (c == '{' || c == '[') {
        if (!Open(&finished)) return Fail();
        continue;
      }
      finished = Scalar();
      if (finished == nullptr) return Fail();
    }
    if (stack_.empty()) {
      SkipSpace();
      if (pos_ == text_.size()) return finished;
      Py_DECREF(finished);
      return Fail();
    }
    if (!AddToTop(finished) || !AfterValue(&finished)) return Fail();
  }
}

// Pushes the container opened at pos_; an empty one is finished at once.
bool Builder::Open(PyObject** finished) {
  const bool is_dict = text_[pos_++] == '{';
  PyObject* container = is_dict ? PyDict_New() : PyList_New(0);
  if (container == nullptr) return false;
  stack_.push_back({container, nullptr, is_dict});
  SkipSpace();
  if (Peek() == (is_dict ? '}' : ']')) {
    ++pos_;
    *finished = container;
    stack_.pop_back();
    return true;
  }
  return !is_dict || ReadKey();
}

bool Builder::ReadKey() {
  SkipSpace();
  if (Peek() != '"') return false;
  PyObject* key = String();
  if (key == nullptr) return false;
  PyObject* shared = PyDict_SetDefault(memo_, key, key);  // borrowed
  Py_XINCREF(shared);
  Py_DECREF(key);
  if (shared == nullptr) return false;
  stack_.back().key = shared;
  SkipSpace();
  if (Peek() != ':') return false;
  ++pos_;
  return true;
}

// Adds `value` (stolen) to the container on top of the stack.
bool Builder::AddToTop(PyObject* value) {
  Frame& top = stack_.back();
  int rc = 0;
  if (top.is_dict) {
    rc = PyDict_SetItem(top.container, top.key, value);
    Py_CLEAR(top.key);
  } else {
    rc = PyList_Append(top.container, value);
  }
  Py_DECREF(value);
  return rc == 0;
}

// After a value inside a container: a comma (then the next key, if any) or the closing
// bracket, which finishes the container.
bool Builder::AfterValue(PyObject** finished) {
  *finished = nullptr;
  SkipSpace();
  const bool is_dict = stack_.back().is_dict;
  const char c = Peek();
  ++pos_;
  if (c == ',') return !is_dict || ReadKey();
  if (c != (is_dict ? '}' : ']')) return false;
  *finished = stack_.back().container;
  stack_.pop_back();
  return true;
}

PyObject* Builder::Scalar() {
  const char c = Peek();
  if (c == '"') return String();
  if (Consume("true")) Py_RETURN_TRUE;
  if (Consume("false")) Py_RETURN_FALSE;
  if (Consume("null")) Py_RETURN_NONE;
  if (Consume("NaN")) return PyFloat_FromDouble(Py_NAN);
  if (Consume("Infinity")) return PyFloat_FromDouble(Py_HUGE_VAL);
  if (Consume("-Infinity")) return PyFloat_FromDouble(-Py_HUGE_VAL);
  return Number();
}

// A number as json.loads reads it: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?, an int unless a
// fraction or an exponent follows.
PyObject* Builder::Number() {
  const size_t start = pos_;
  if (Peek() == '-') ++pos_;
  if (Peek() == '0') {
    ++pos_;
  } else if (IsDigit(Peek())) {
    while (IsDigit(Peek())) ++pos_;
  } else {
    return nullptr;
  }
  bool is_float = false;
  if (Peek() == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1])) {
    is_float = true;
    for (++pos_; IsDigit(Peek());) ++pos_;
  }
  if (Peek() == 'e' || Peek() == 'E') {
    size_t exp = pos_ + 1;
    if (exp < text_.size() && (text_[exp] == '+' || text_[exp] == '-')) ++exp;
    if (exp < text_.size() && IsDigit(text_[exp])) {
      is_float = true;
      for (pos_ = exp; IsDigit(Peek());) ++pos_;
    }
  }
  const std::string digits(text_.substr(start, pos_ - start));
  if (!is_float) return PyLong_FromString(digits.c_str(), nullptr, 10);
  const double value = PyOS_string_to_double(digits.c_str(), nullptr, nullptr);
  if (value == -1.0 && PyErr_Occurred()) return nullptr;
  return PyFloat_FromDouble(value);
}

// A string at pos_ (on its opening quote). Without escapes it is decoded in one piece.
PyObject* Builder::String() {
  const size_t start = ++pos_;
  while (pos_ < text_.size()) {
    const unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c == '"') {
      PyObject* text = PyUnicode_DecodeUTF8(text_.data() + start,
                                            static_cast<Py_ssize_t>(pos_ - start), "replace");
      ++pos_;
      return text;
    }
    if (c == '\\') return EscapedString(start);
    if (c < 0x20) return nullptr;  // json.loads refuses raw control characters
    ++pos_;
  }
  return nullptr;
}

// The slow path: runs of raw bytes decoded as UTF-8 ("replace"), escapes as code points.
PyObject* Builder::EscapedString(size_t start) {
  std::vector<Py_UCS4> out;
  size_t run = start;
  for (;;) {
    const char c = Peek();
    if (c == '"' || c == '\\' || pos_ >= text_.size()) {
      PyObject* piece =
          PyUnicode_DecodeUTF8(text_.data() + run, static_cast<Py_ssize_t>(pos_ - run), "replace");
      if (piece == nullptr) return nullptr;
      for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(piece); ++i) {
        out.push_back(PyUnicode_READ_CHAR(piece, i));
      }
      Py_DECREF(piece);
    }
    if (pos_ >= text_.size()) return nullptr;
    if (c == '"') break;
    if (c == '\\') {
      if (!Escape(out)) return nullptr;
      run = pos_;
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x20) return nullptr;
    ++pos_;
  }
  ++pos_;
  return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out.data(),
                                   static_cast<Py_ssize_t>(out.size()));
}

// One escape at pos_ (on its backslash); a \u high surrogate followed by a \u low surrogate
// is one code point, as json.loads joins them.
bool Builder::Escape(std::vector<Py_UCS4>& out) {
  ++pos_;
  const char c = Peek();
  ++pos_;
  switch (c) {
    case '"': out.push_back('"'); return true;
    case '\\': out.push_back('\\'); return true;
    case '/': out.push_back('/'); return true;
    case 'b': out.push_back('\b'); return true;
    case 'f': out.push_back('\f'); return true;
    case 'n': out.push_back('\n'); return true;
    case 'r': out.push_back('\r'); return true;
    case 't': out.push_back('\t'); return true;
    case 'u': break;
    default: return false;
  }
  Py_UCS4 unit = 0;
  if (!HexQuad(&unit)) return false;
  if (unit >= 0xD800 && unit <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
    const size_t saved = pos_;
    pos_ += 2;
    Py_UCS4 low = 0;
    if (HexQuad(&low) && low >= 0xDC00 && low <= 0xDFFF) {
      out.push_back(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
      return true;
    }
    pos_ = saved;
  }
  out.push_back(unit);
  return true;
}

bool Builder::HexQuad(Py_UCS4* out) {
  if (pos_ + 4 > text_.size()) return false;
  Py_UCS4 value = 0;
  for (size_t i = 0; i < 4; ++i) {
    const int digit = HexValue(text_[pos_ + i]);
    if (digit < 0) return false;
    value = value * 16 + static_cast<Py_UCS4>(digit);
  }
  pos_ += 4;
  *out = value;
  return true;
}

}  // namespace

PyObject* JsonToPython(std::string_view text) {
  try {
    return Builder(text).Run();
  } catch (const std::bad_alloc&) {
    // The stack or a string's code points outgrew memory: MemoryError, as json.loads gives.
    return PyErr_NoMemory();
  }
}

}  // namespace proton::python
