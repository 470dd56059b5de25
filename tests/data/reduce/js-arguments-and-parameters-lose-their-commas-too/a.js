function f(a, b, c) {
  return g(a, 'needle', b, c);
}
f(1, 2, 3);
