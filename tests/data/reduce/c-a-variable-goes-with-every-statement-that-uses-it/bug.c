int printf(const char *, ...);

static int scaled(int step, int scale)
{
    int total = 0;
    total += step;
    total *= scale;
    return total;
}

int main(void)
{
    int keep = 1;
    int extra = 2;
    extra = extra + keep;
    printf("%d\n", extra);
    extra = scaled(3, extra);
    return keep;
}
