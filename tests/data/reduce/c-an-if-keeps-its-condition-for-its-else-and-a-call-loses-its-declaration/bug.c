#include <stddef.h>
extern int use(size_t, int);
typedef struct { int mtf; size_t len; } State;
int sendMTF(State *s, size_t total)
{
   size_t count = total * 2 + s->len;
   int nSelectors;
   if (s->mtf > 10) {
      count = 0;
   } else {
      for (;;) {
         nSelectors = (int)count;
         if (count > 3) break;
      }
   }
   int checked = use(count, nSelectors);
   return checked;
}
