#ifndef CFFMPEG_SHIMS_INPUT_H
#define CFFMPEG_SHIMS_INPUT_H

#include <libavformat/avformat.h>

#include "CFFmpegShims.h"

/* Bytes in memory read through a custom AVIOContext. */
typedef struct vf_memory {
    const uint8_t *bytes;
    size_t length;
    size_t position;
} vf_memory;

struct vf_input {
    vf_memory memory;
    AVIOContext *io;
    AVFormatContext *format;
    int stream;           /* index of the first video stream */
};

#endif
