int f(int x)
{
    return (x + 1;
}

int g(void)
{
    return y;
}
