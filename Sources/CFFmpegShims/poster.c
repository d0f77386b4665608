#include <stdlib.h>

#include <libavcodec/avcodec.h>
#include <libavutil/common.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

#include "error.h"
#include "input.h"

/* Reads packets of the video stream until a keyframe whose presentation time is at or after `from` (in the
 * stream's time base); *found stays 0 when the stream ends first. */
static int
next_keyframe(vf_input *input, int64_t from, AVPacket *packet, int *found)
{
    *found = 0;
    while (1) {
        int status = av_read_frame(input->format, packet);
        if (status == AVERROR_EOF) return 0;
        if (status < 0) return status;
        int64_t time = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
        if (packet->stream_index == input->stream && (packet->flags & AV_PKT_FLAG_KEY)
            && (from == AV_NOPTS_VALUE || (time != AV_NOPTS_VALUE && time >= from))) {
            *found = 1;
            return 0;
        }
        av_packet_unref(packet);
    }
}

/* The poster's packet: the first keyframe at or after `at` seconds from the stream's start, found from the
 * keyframe before it (no demuxer seeks forward reliably); else the stream's first keyframe. */
static int
poster_packet(vf_input *input, double at, AVPacket *packet, vf_error *error)
{
    AVStream *stream = input->format->streams[input->stream];
    int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    int found = 0;
    if (at >= 0 && stream->time_base.num > 0 && stream->time_base.den > 0) {
        int64_t offset = av_rescale_q((int64_t) (at * AV_TIME_BASE), AV_TIME_BASE_Q, stream->time_base);
        int64_t target = av_sat_add64(start, offset);
        if (avformat_seek_file(input->format, input->stream, INT64_MIN, target, target, 0) >= 0) {
            int status = next_keyframe(input, target, packet, &found);
            if (status < 0) return vf_fail(error, VF_STEP_PACKET, status, "reading the stream");
        }
    }
    if (!found) {
        av_seek_frame(input->format, input->stream, start, AVSEEK_FLAG_BACKWARD);
        int status = next_keyframe(input, AV_NOPTS_VALUE, packet, &found);
        if (status < 0) return vf_fail(error, VF_STEP_PACKET, status, "reading the stream");
    }
    return found ? 0 : vf_fail(error, VF_STEP_PACKET, 0, "the video stream holds no keyframe");
}

static int
open_decoder(vf_input *input, const vf_poster_options *options, AVCodecContext **out, vf_error *error)
{
    const AVCodecParameters *parameters = input->format->streams[input->stream]->codecpar;
    const AVCodec *codec = avcodec_find_decoder_by_name(options->decoder);
    if (!codec || codec->id != parameters->codec_id)
        return vf_fail(error, VF_STEP_DECODER, 0, "no such decoder for the stream's codec");
    AVCodecContext *context = avcodec_alloc_context3(codec);
    if (!context) return vf_fail(error, VF_STEP_DECODER, AVERROR(ENOMEM), "allocating the decoder");
    *out = context;
    int status = avcodec_parameters_to_context(context, parameters);
    if (status < 0) return vf_fail(error, VF_STEP_DECODER, status, "configuring the decoder");
    AVDictionary *settings = NULL;
    av_dict_set(&settings, "codec_whitelist", options->decoder, 0);
    av_dict_set_int(&settings, "threads", 1, 0);
    av_dict_set_int(&settings, "max_pixels", options->max_pixels, 0);
    status = avcodec_open2(context, codec, &settings);
    av_dict_free(&settings);
    return status < 0 ? vf_fail(error, VF_STEP_DECODER, status, "opening the decoder") : 0;
}

/* Sends the one packet, then drains the decoder for the picture it makes. */
static int
decode_one(AVCodecContext *context, AVPacket *packet, AVFrame *frame, vf_error *error)
{
    int status = avcodec_send_packet(context, packet);
    if (status < 0) return vf_fail(error, VF_STEP_DECODE, status, "decoding the keyframe");
    avcodec_send_packet(context, NULL);
    status = avcodec_receive_frame(context, frame);
    if (status == AVERROR_EOF) return vf_fail(error, VF_STEP_DECODE, 0, "the keyframe decodes to no picture");
    return status < 0 ? vf_fail(error, VF_STEP_DECODE, status, "decoding the keyframe") : 0;
}

/* To RGB of `bits` with the matrix and range the frame declares (BT.601 when it declares none), as FFmpeg's
 * own scale filter converts. */
static int
convert(const AVFrame *frame, int bits, vf_pixels *out, vf_error *error)
{
    if (av_image_check_size(frame->width, frame->height, 0, NULL) < 0)
        return vf_fail(error, VF_STEP_CONVERT, 0, "the picture's size cannot be converted");
    int deep = bits > 8;
    struct SwsContext *scaler = sws_getContext(frame->width, frame->height, frame->format, frame->width,
                                               frame->height, deep ? AV_PIX_FMT_RGB48LE : AV_PIX_FMT_RGB24,
                                               SWS_BICUBIC, NULL, NULL, NULL);
    if (!scaler) return vf_fail(error, VF_STEP_CONVERT, 0, "no conversion from the picture's pixel format");
    const int *table = sws_getCoefficients(frame->colorspace);
    sws_setColorspaceDetails(scaler, table, frame->color_range == AVCOL_RANGE_JPEG,
                             sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    size_t stride = (size_t) frame->width * 3 * (deep ? 2 : 1);
    uint8_t *pixels = malloc(stride * (size_t) frame->height);
    if (!pixels) {
        sws_freeContext(scaler);
        return vf_fail(error, VF_STEP_CONVERT, AVERROR(ENOMEM), "allocating the picture");
    }
    uint8_t *planes[4] = { pixels, NULL, NULL, NULL };
    int strides[4] = { (int) stride, 0, 0, 0 };
    int rows = sws_scale(scaler, (const uint8_t *const *) frame->data, frame->linesize, 0, frame->height,
                         planes, strides);
    sws_freeContext(scaler);
    if (rows != frame->height) {
        free(pixels);
        return vf_fail(error, VF_STEP_CONVERT, rows < 0 ? rows : 0, "converting the picture");
    }
    *out = (vf_pixels) {
        .data = pixels, .width = frame->width, .height = frame->height, .bits = deep ? 16 : 8
    };
    return 0;
}

int
vf_decode_poster(vf_input *input, const vf_poster_options *options, vf_pixels *out, vf_error *error)
{
    *out = (vf_pixels) { 0 };
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    AVCodecContext *context = NULL;
    int status = packet && frame ? 0 : vf_fail(error, VF_STEP_DECODE, AVERROR(ENOMEM), "allocating a frame");
    if (status == 0) status = open_decoder(input, options, &context, error);
    if (status == 0) status = poster_packet(input, options->at, packet, error);
    if (status == 0) status = decode_one(context, packet, frame, error);
    if (status == 0) status = convert(frame, options->bits, out, error);
    avcodec_free_context(&context);
    av_frame_free(&frame);
    av_packet_free(&packet);
    return status;
}

void
vf_pixels_release(void *data)
{
    free(data);
}
