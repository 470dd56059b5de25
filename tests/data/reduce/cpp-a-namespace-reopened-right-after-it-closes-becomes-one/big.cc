// Two parts of one namespace, as a preprocessed file has them.
namespace lib {
  typedef unsigned Chunk;
  struct Big {
    Chunk Raw(int index);
    int Sub(int factor);
    int used;
  };
}
namespace lib {
  int Divide(Big &other) {
    int result = other.Sub(other.Raw(other.used - 1));
    return result;
  }
}
