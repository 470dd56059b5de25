#include <stdio.h>

/* a helper */
static int add(int a, int b) {
    return a + b;
}

int main(void) {
    int x = add(1, 2);
    if (x > 2) {
        printf("big %d\n", x);
    } else {
        printf("small\n");
    }
    return 0;
}
