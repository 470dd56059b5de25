#include <stddef.h>
#include <stdint.h>

/* Sums the bytes of a buffer; zz is left over from a refactoring. */
size_t count(const uint8_t *p, size_t n)
{
   size_t total = 0;
   int zz;
   for (size_t i = 0; i < n; i++)
      total += p[i];
   return total;
}
