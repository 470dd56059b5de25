typedef unsigned char UChar;
typedef int Int32;
typedef unsigned int UInt32;
typedef struct { UChar block[8]; Int32 nblock; } State;

Int32 put (State* s, UInt32 value)
{
   Int32 i = s->nblock;
   s->block[i] = value;
   return i;
}
