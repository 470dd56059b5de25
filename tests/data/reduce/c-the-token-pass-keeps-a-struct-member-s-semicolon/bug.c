typedef char            Char;
typedef unsigned char   UChar;
typedef int             Int32;
typedef unsigned int    UInt32;

#define NORETURN __attribute__ ((noreturn))

static void    panic                 ( const Char* ) NORETURN;
static void    ioError               ( void )        NORETURN;

typedef
   struct { UChar b[8]; } 
   UInt64;

static
void uInt64_from_UInt32s ( UInt64* n, UInt32 lo32, UInt32 hi32 )
{
   n->b[7] = (UChar)((hi32 >> 24) & 0xFF);
   n->b[3] = (UChar)((lo32 >> 24) & 0xFF);
   n->b[0] = (UChar) (lo32        & 0xFF);
}

static
Int32 uInt64_qrm10 ( UInt64* n )
{
   UInt32 rem, tmp;
   Int32  i;
   rem = 0;
   for (i = 7; i >= 0; i--) {
      tmp = rem * 256 + n->b[i];
      n->b[i] = tmp / 10;
      rem = tmp % 10;
   }
   return rem;
}
