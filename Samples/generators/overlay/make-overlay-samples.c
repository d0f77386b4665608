/* Writes the HEIF overlay (iovl) test pictures of Samples/pictures/overlay with libheif's C API (see README.md there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <libheif/heif.h>
#include <libheif/heif_properties.h>

static void check(struct heif_error e, const char *what) {
    if (e.code != heif_error_Ok) { fprintf(stderr, "%s: %s\n", what, e.message); exit(1); }
}

static uint32_t be32(const uint8_t *p) { return (uint32_t) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
static void put32(uint8_t *p, uint32_t v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }

typedef struct { int width, height; unsigned char r, g, b; } tile;

static heif_item_id encode_tile(struct heif_context *context, struct heif_encoder *encoder, tile t) {
    struct heif_image *image;
    check(heif_image_create(t.width, t.height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image), "create");
    check(heif_image_add_plane(image, heif_channel_interleaved, t.width, t.height, 8), "plane");
    int stride;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < t.height; y++)
        for (int x = 0; x < t.width; x++) {
            uint8_t *p = plane + (size_t) y * stride + x * 3;
            p[0] = t.r; p[1] = t.g; p[2] = t.b;
        }
    struct heif_image_handle *handle;
    check(heif_context_encode_image(context, image, encoder, NULL, &handle), "encode");
    heif_item_id id = heif_image_handle_get_item_id(handle);
    heif_image_handle_release(handle);
    heif_image_release(image);
    return id;
}

/* Associates a transformative property (clap, irot, imir) with an item, essential, after its others. */
static void add_transform(struct heif_context *context, heif_item_id item, const char type[4], const uint8_t *data,
                          size_t size) {
    uint32_t fourcc = (uint32_t) type[0] << 24 | (uint32_t) type[1] << 16 | (uint32_t) type[2] << 8 | (uint8_t) type[3];
    heif_property_id property;
    check(heif_item_add_raw_property(context, item, fourcc, NULL, data, size, 1, &property), type);
}

/* A clean aperture of 100 x 80 whose centre is 10 left of and 6 below the canvas's: on 160 x 120 it keeps
 * x 20..119, y 26..105 (whole numbers, so no rounding rule comes into it). */
static const int32_t aperture[8] = {100, 1, 80, 1, -10, 1, 6, 1};

/* tiles[i] is placed at offsets[2i], offsets[2i+1]; refs lists which tile each placement shows. The overlay is
 * turned by irot `quarter_turns` (anticlockwise), then mirrored by imir `axis`, each left out when negative,
 * and cropped to `aperture` before them (`cropped` 1) or, against the standard's order, after them (2). */
static void write_overlay(const char *path, const char *codec, int width, int height, const tile *tiles, int count,
                          const int *refs, const int32_t *offsets, int placements, const uint16_t fill[4],
                          int cropped, int quarter_turns, int axis) {
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder;
    check(heif_context_get_encoder_for_format(context, strcmp(codec, "avif") == 0 ? heif_compression_AV1
                                                                                  : heif_compression_HEVC, &encoder),
          "encoder");
    heif_encoder_set_lossy_quality(encoder, 90);
    heif_item_id ids[16], placed[16];
    for (int i = 0; i < count; i++) ids[i] = encode_tile(context, encoder, tiles[i]);
    for (int i = 0; i < placements; i++) placed[i] = ids[refs[i]];
    int32_t copy[32];
    memcpy(copy, offsets, sizeof(int32_t) * 2 * placements);
    struct heif_image_handle *overlay;
    check(heif_context_add_overlay_image(context, width, height, placements, placed, copy, fill, &overlay), "overlay");
    check(heif_context_set_primary_image(context, overlay), "primary");
    heif_item_id id = heif_image_handle_get_item_id(overlay);
    uint8_t clap[32];
    for (int i = 0; i < 8; i++) put32(clap + 4 * i, (uint32_t) aperture[i]);
    if (cropped == 1) add_transform(context, id, "clap", clap, sizeof clap);
    uint8_t turn = (uint8_t) quarter_turns, mirror = (uint8_t) axis;
    if (quarter_turns >= 0) add_transform(context, id, "irot", &turn, 1);
    if (axis >= 0) add_transform(context, id, "imir", &mirror, 1);
    if (cropped == 2) add_transform(context, id, "clap", clap, sizeof clap);
    check(heif_context_write_to_file(context, path), "write");
    heif_image_handle_release(overlay);
    heif_encoder_release(encoder);
    heif_context_free(context);
}


/* libheif writes no 'iref' for an overlay that names one tile twice; this adds it at the end of 'meta' (and
 * moves the file offsets in 'iloc', libheif's version 1 layout with 4-byte fields, past it). */
static void add_references(const char *path, uint16_t from, const uint16_t *to, int count) {
    FILE *file = fopen(path, "rb");
    static uint8_t in[1 << 20], out[1 << 20];
    size_t length = fread(in, 1, sizeof in, file);
    fclose(file);
    size_t meta = be32(in) /* after ftyp */, meta_end = meta + be32(in + meta);
    size_t iref_size = 12 + 8 + 4 + 2 * (size_t) count;
    for (size_t at = meta + 12; at < meta_end; at += be32(in + at)) {
        if (memcmp(in + at + 4, "iloc", 4) != 0) continue;
        const uint8_t *iloc = in + at + 8;
        if (iloc[0] != 1 || iloc[4] != 0x44 || iloc[5] != 0x40) { fprintf(stderr, "iloc layout\n"); exit(1); }
        int items = iloc[6] << 8 | iloc[7];
        uint8_t *entry = in + at + 8 + 8;
        for (int i = 0; i < items; i++) {
            int method = entry[3] & 15, extents = entry[10] << 8 | entry[11];
            if (method == 0) put32(entry + 6, be32(entry + 6) + (uint32_t) iref_size);
            entry += 12 + 8 * extents;
        }
    }
    memcpy(out, in, meta_end);
    put32(out + meta, be32(in + meta) + (uint32_t) iref_size);
    uint8_t *iref = out + meta_end;
    put32(iref, (uint32_t) iref_size);
    memcpy(iref + 4, "iref", 4);
    put32(iref + 8, 0);
    put32(iref + 12, (uint32_t) iref_size - 12);
    memcpy(iref + 16, "dimg", 4);
    iref[20] = from >> 8; iref[21] = from & 255; iref[22] = 0; iref[23] = count;
    for (int i = 0; i < count; i++) { iref[24 + 2 * i] = to[i] >> 8; iref[25 + 2 * i] = to[i] & 255; }
    memcpy(out + meta_end + iref_size, in + meta_end, length - meta_end);
    file = fopen(path, "wb");
    fwrite(out, 1, length + iref_size, file);
    fclose(file);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[512];
    const tile tiles[5] = {{64, 48, 220, 30, 30}, {64, 48, 30, 200, 40}, {64, 64, 40, 50, 210},
                           {48, 32, 230, 220, 40}, {32, 32, 200, 40, 200}};
    /* Offsets, a fill colour, overlapping tiles (later on top), tiles across every edge, one wholly outside. */
    const int refs[5] = {0, 1, 2, 3, 4};
    const int32_t offsets[10] = {8, 8, 40, 30, 120, 80, -16, -12, 200, 150};
    const uint16_t fill[4] = {0x8080, 0x8080, 0x8080, 0xFFFF};
    /* The same without the tile at a negative offset: what libheif composes itself. */
    const int32_t inside[10] = {8, 8, 40, 30, 120, 80, 16, 100, 200, 150};
    snprintf(path, sizeof path, "%s/overlay-inside.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 5, refs, inside, 5, fill, 0, -1, -1);
    snprintf(path, sizeof path, "%s/overlay-edges.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 5, refs, offsets, 5, fill, 0, -1, -1);
    snprintf(path, sizeof path, "%s/overlay-edges.avif", dir);
    write_overlay(path, "avif", 160, 120, tiles, 5, refs, offsets, 5, fill, 0, -1, -1);
    /* Both again turned a quarter anticlockwise, then mirrored about the vertical axis. */
    snprintf(path, sizeof path, "%s/overlay-inside-turned.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 5, refs, inside, 5, fill, 0, 1, 0);
    snprintf(path, sizeof path, "%s/overlay-edges-turned.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 5, refs, offsets, 5, fill, 0, 1, 0);
    /* And cropped to the aperture first. */
    snprintf(path, sizeof path, "%s/overlay-inside-cropped.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 5, refs, inside, 5, fill, 1, 1, 0);
    snprintf(path, sizeof path, "%s/overlay-edges-cropped.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 5, refs, offsets, 5, fill, 1, 1, 0);
    snprintf(path, sizeof path, "%s/overlay-edges-cropped-late.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 5, refs, offsets, 5, fill, 2, 1, 0);
    /* One tile shown twice (the item referenced twice, as in Nokia's C021), on a dark-blue fill. */
    const int twice[3] = {0, 0, 1};
    const int32_t twiceOffsets[6] = {0, 0, 96, 72, 48, 36};
    const uint16_t dark[4] = {0x1000, 0x2000, 0x6000, 0xFFFF};
    snprintf(path, sizeof path, "%s/overlay-repeated-tile.heic", dir);
    write_overlay(path, "heic", 160, 120, tiles, 2, twice, twiceOffsets, 3, dark, 0, -1, -1);
    const uint16_t references[3] = {1, 1, 2};
    add_references(path, 3, references, 3);
    return 0;
}
