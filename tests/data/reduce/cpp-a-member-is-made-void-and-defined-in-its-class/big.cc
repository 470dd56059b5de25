// A member function defined out of its class, which ends in a call that
// does not return, as preprocessed C++ has them.
[[noreturn]] void fail(const char *what);
namespace lib {
  typedef unsigned Chunk;
  struct Big {
    int Divide(const Big &other);
    Chunk Raw(int index) const;
    void Sub(const Big &other, int factor);
    int used;
  };
  int Big::Divide(const Big &other) {
    if (other.used == 0) fail("division by zero");
    Sub(other, other.Raw(other.used - 1));
    if (used < 0) return -used;
    fail("unreachable");
  }
}
