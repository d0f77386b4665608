#include <libheif/heif.h>
#include <libheif/heif_items.h>
