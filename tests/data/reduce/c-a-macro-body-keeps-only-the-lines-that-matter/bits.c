typedef unsigned char Bool;
typedef unsigned int UInt32;

struct state {
    UInt32 buff;
    int live;
    Bool flag;
};

#define GET_BITS(vvv, nnn)                   \
    while (1) {                              \
        if (s->live >= nnn) {                \
            UInt32 v;                        \
            v = (s->buff >> (s->live - nnn)) \
                & ((1 << nnn) - 1);          \
            s->live -= nnn;                  \
            vvv = v;                         \
            break;                           \
        }                                    \
        s->buff = (s->buff << 8) | 1;        \
        s->live += 8;                        \
    }

int decode(struct state *s)
{
    GET_BITS(s->flag, 1);
    return s->live;
}
