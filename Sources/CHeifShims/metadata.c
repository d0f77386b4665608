#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>

#include "CHeifShims.h"
#include "context.h"

void *
vh_copy_metadata(const vh_context *context, int xmp, size_t max_length, size_t *length)
{
    heif_item_id ids[16];
    *length = 0;
    int count = heif_image_handle_get_list_of_metadata_block_IDs(context->primary, xmp ? "mime" : "Exif", ids, 16);
    for (int i = 0; i < count; i++) {
        if (xmp && strcmp(heif_image_handle_get_metadata_content_type(context->primary, ids[i]),
                          "application/rdf+xml") != 0)
            continue;
        size_t size = heif_image_handle_get_metadata_size(context->primary, ids[i]);
        if (size == 0 || size > max_length)
            continue;
        void *block = malloc(size);
        if (block && heif_image_handle_get_metadata(context->primary, ids[i], block).code == heif_error_Ok) {
            *length = size;
            return block;
        }
        free(block);
    }
    return NULL;
}
