namespace app {
struct A { int x; };
template <typename T, typename U>
struct Pair : A {
    Pair(int a, int b) : first(a), second(b), tag(0) {}
    int first, second, tag;
};
int run(int k) { Pair<int, long> p(k, 2); return p.first; }
}
