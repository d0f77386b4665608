#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/display.h>
#include <libswscale/swscale.h>

#include "error.h"
#include "input.h"

enum { io_buffer_size = 1 << 16 };

static int
read_memory(void *opaque, uint8_t *buffer, int size)
{
    vf_memory *memory = opaque;
    size_t left = memory->length - memory->position;
    if (left == 0) return AVERROR_EOF;
    size_t count = (size_t) size < left ? (size_t) size : left;
    memcpy(buffer, memory->bytes + memory->position, count);
    memory->position += count;
    return (int) count;
}

static int64_t
seek_memory(void *opaque, int64_t offset, int whence)
{
    vf_memory *memory = opaque;
    int64_t base;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return (int64_t) memory->length;
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = (int64_t) memory->position; break;
    case SEEK_END: base = (int64_t) memory->length; break;
    default: return AVERROR(EINVAL);
    }
    if (offset > (int64_t) memory->length - base || base + offset < 0) return AVERROR(EINVAL);
    memory->position = (size_t) (base + offset);
    return base + offset;
}

/* Every other file or URL a demuxer asks for (a QuickTime data reference, say) is refused. */
static int
refuse_io_open(AVFormatContext *context, AVIOContext **pb, const char *url, int flags, AVDictionary **options)
{
    (void) context; (void) pb; (void) url; (void) flags; (void) options;
    return AVERROR(EPERM);
}

static void
describe(const vf_input *input, vf_stream_info *info)
{
    const AVStream *stream = input->format->streams[input->stream];
    const AVCodecParameters *parameters = stream->codecpar;
    memset(info, 0, sizeof(*info));
    snprintf(info->codec, sizeof(info->codec), "%s", avcodec_get_name(parameters->codec_id));
    info->width = parameters->width;
    info->height = parameters->height;
    AVRational sar = stream->sample_aspect_ratio.num > 0 ? stream->sample_aspect_ratio
                                                         : parameters->sample_aspect_ratio;
    if (sar.num > 0 && sar.den > 0) {
        info->sar_num = sar.num;
        info->sar_den = sar.den;
    }
    size_t size = 0;
#if LIBAVFORMAT_VERSION_MAJOR >= 61
    const AVPacketSideData *data = av_packet_side_data_get(
        parameters->coded_side_data, parameters->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    const uint8_t *side = data ? data->data : NULL;
    size = data ? data->size : 0;
#else
    const uint8_t *side = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
#endif
    if (side && size >= 9 * sizeof(int32_t)) {
        int32_t matrix[9];
        memcpy(matrix, side, sizeof(matrix));
        /* A negative determinant mirrors; the rotation is read once the mirroring is taken out. */
        if ((int64_t) matrix[0] * matrix[4] - (int64_t) matrix[1] * matrix[3] < 0) {
            info->mirrored = 1;
            av_display_matrix_flip(matrix, 1, 0);
        }
        double rotation = av_display_rotation_get(matrix);
        info->rotation = rotation == rotation ? rotation : 0;
    }
    info->primaries = parameters->color_primaries;
    info->transfer = parameters->color_trc;
    if (stream->duration > 0 && stream->duration != AV_NOPTS_VALUE) {
        info->duration = stream->duration * av_q2d(stream->time_base);
    } else if (input->format->duration > 0) {
        info->duration = input->format->duration / (double) AV_TIME_BASE;
    }
}

int
vf_open(const void *bytes, size_t length, const char *format, vf_input **out, vf_stream_info *info,
        vf_error *error)
{
    *out = NULL;
    const AVInputFormat *demuxer = av_find_input_format(format);
    if (!demuxer) return vf_fail(error, VF_STEP_OPEN, 0, "no such demuxer");
    vf_input *input = av_mallocz(sizeof(*input));
    if (!input) return vf_fail(error, VF_STEP_OPEN, AVERROR(ENOMEM), "allocating the input");
    input->memory = (vf_memory) { .bytes = bytes, .length = length, .position = 0 };
    uint8_t *buffer = av_malloc(io_buffer_size);
    input->io = buffer ? avio_alloc_context(buffer, io_buffer_size, 0, &input->memory, read_memory, NULL,
                                            seek_memory)
                       : NULL;
    input->format = input->io ? avformat_alloc_context() : NULL;
    if (!input->format) {
        if (!input->io) av_free(buffer);
        vf_close(input);
        return vf_fail(error, VF_STEP_OPEN, AVERROR(ENOMEM), "allocating the demuxer");
    }
    input->format->pb = input->io;
    input->format->io_open = refuse_io_open;
    AVDictionary *options = NULL;
    av_dict_set(&options, "format_whitelist", format, 0);
    av_dict_set(&options, "protocol_whitelist", "none", 0);
    int status = avformat_open_input(&input->format, NULL, demuxer, &options);
    av_dict_free(&options);
    if (status < 0) {
        /* avformat_open_input frees the context on failure. */
        input->format = NULL;
        vf_close(input);
        return vf_fail(error, VF_STEP_OPEN, status, "reading the container");
    }
    input->stream = av_find_best_stream(input->format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    /* A cover picture is a video stream of one frame; the clip's own stream is wanted. */
    for (unsigned index = 0; input->stream >= 0 && index < input->format->nb_streams; index++) {
        if (!(input->format->streams[input->stream]->disposition & AV_DISPOSITION_ATTACHED_PIC)) break;
        const AVStream *other = input->format->streams[index];
        if (other->codecpar->codec_type == AVMEDIA_TYPE_VIDEO
            && !(other->disposition & AV_DISPOSITION_ATTACHED_PIC))
            input->stream = (int) index;
    }
    if (input->stream < 0) {
        int code = input->stream;
        vf_close(input);
        return vf_fail(error, VF_STEP_STREAM, code, "finding a video stream");
    }
    describe(input, info);
    *out = input;
    return 0;
}

void
vf_close(vf_input *input)
{
    if (!input) return;
    avformat_close_input(&input->format);
    if (input->io) {
        av_freep(&input->io->buffer);
        avio_context_free(&input->io);
    }
    av_free(input);
}

void
vf_start(void)
{
    av_log_set_level(AV_LOG_QUIET);
}

void
vf_versions(unsigned versions[4])
{
    versions[0] = avformat_version();
    versions[1] = avcodec_version();
    versions[2] = avutil_version();
    versions[3] = swscale_version();
}
