#include <stdlib.h>

#include "CJPEGShims.h"

/* Apart from encode.c, so that the decoder builds alone (the fuzzer's) without jpegli. */
void
vj_free(void *bytes)
{
    free(bytes);
}
