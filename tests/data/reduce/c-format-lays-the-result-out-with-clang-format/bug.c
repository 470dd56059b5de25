#include <stdio.h>

static int accumulate_values(int first_value, int second_value)
{
        int running_total = first_value;


        if (second_value > 0)
                running_total = running_total + second_value;
        else
                running_total = running_total - 1;
        return running_total / 0;
}

int main(void)
{
        printf("%d\n",
               accumulate_values(3,
                                 4));
        return 0;
}
