int f(int n) {
    while (n > 10 && n < 1000) {
        n = n * 3 + 1;
        n--;
    }
    return n;
}
