/*
 * The part of FFmpeg (libavformat, libavcodec, libswscale) that Swift sees.
 *
 * Why a shim: FFmpeg is driven through structs whose fields are set and read between calls (a demuxer's
 * I/O callbacks, packets, frames, option dictionaries), macros (AVERROR) and a conversion whose colour
 * details come from the frame; all simpler once in C. The shim only forwards: which demuxer, which decoder,
 * the time of the poster and the pixel limit all arrive from Swift.
 */
#ifndef CFFMPEG_SHIMS_H
#define CFFMPEG_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/* Which step failed, so the caller decides what a failure means without reading FFmpeg's words. */
typedef enum vf_step {
    VF_STEP_OPEN = 1,     /* the demuxer could not read the container's header */
    VF_STEP_STREAM = 2,   /* the container holds no video stream */
    VF_STEP_DECODER = 3,  /* the named decoder does not exist, does not decode the stream's codec, or did not open */
    VF_STEP_PACKET = 4,   /* the stream holds no frame to decode */
    VF_STEP_DECODE = 5,   /* the decoder rejected the frame's data or produced no picture */
    VF_STEP_CONVERT = 6   /* the picture could not be converted to RGB */
} vf_step;

/* A failure: the step, FFmpeg's error code (0 when the shim itself refused) and words, copied. */
typedef struct vf_error {
    int step;             /* vf_step */
    int code;             /* AVERROR value */
    char message[256];
} vf_error;

/* What the container says about its first video stream; nothing is decoded to learn it. */
typedef struct vf_stream_info {
    char codec[32];       /* FFmpeg's name of the stream's codec: "h264", "hevc", "vp9", "av1", ... */
    int width;            /* coded size the container declares */
    int height;
    int sar_num;          /* sample aspect ratio (pixel width : height); 0 when unknown */
    int sar_den;
    double rotation;      /* degrees the picture turns anticlockwise to be displayed (display matrix) */
    int mirrored;         /* the display matrix mirrors it left to right, before the rotation */
    double duration;      /* seconds; 0 when the container does not say */
    int primaries;        /* colour primaries and transfer the container declares, as ISO/IEC 23091-2 code */
    int transfer;         /* points (FFmpeg's enums are those): 9 BT.2020; 16 PQ, 18 HLG; 2 unspecified */
} vf_stream_info;

typedef struct vf_input vf_input;

/* Opens bytes held in memory (not copied: they must outlive the input) with the one demuxer `format` names
 * (FFmpeg's short name: "mov", "matroska"); no protocol is allowed and no other file is ever opened. */
int vf_open(const void *bytes, size_t length, const char *format, vf_input **out, vf_stream_info *info,
            vf_error *error);

void vf_close(vf_input *input);

typedef struct vf_poster_options {
    const char *decoder;  /* the decoder by name ("h264", "hevc", "vp9", "libdav1d"), single-threaded */
    double at;            /* seconds from the stream's start: the first keyframe at or after it is the poster;
                             negative (or no keyframe there): the first frame */
    int64_t max_pixels;   /* the largest picture the decoder may allocate */
    int bits;             /* 8: RGB, a byte a sample; 16: RGB, two bytes a sample (little endian), for a
                             signal to be mapped from more than 8 bits */
} vf_poster_options;

/* A decoded picture as RGB of the bits asked for, rows packed (stride = width * 3 samples). */
typedef struct vf_pixels {
    void *data;           /* pass to vf_pixels_release */
    int width;
    int height;
    int bits;
} vf_pixels;

/* Decodes one frame, the poster, and nothing after it: the keyframe's packet alone, the decoder then
 * drained; converted to RGB by the matrix and range the frame declares. */
int vf_decode_poster(vf_input *input, const vf_poster_options *options, vf_pixels *out, vf_error *error);

/* Frees decoded pixels; its signature lets libvips call it when an image wrapping them closes. */
void vf_pixels_release(void *data);

/* Silences FFmpeg's own log: failures come back as vf_error. */
void vf_start(void);

/* The library versions this process runs on: libavformat, libavcodec, libavutil, libswscale, each
 * major << 16 | minor << 8 | micro. */
void vf_versions(unsigned versions[4]);

#endif
