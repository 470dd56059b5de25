#include <stdio.h>

#ifdef WITH_HELPERS
static int
helper(int value)
{
    return value * 2;
}

int
report(const char *name)
{
    int count;
    printf("%s\n", name);
    return 0;
}
#endif

int main(void)
{
    return 0;
}
