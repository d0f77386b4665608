#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <string.h>
#include <vips/vips.h>

#include "error.h"

int
vv_init(const char *program_name, int concurrency, vv_error *error)
{
    static GMutex lock;
    static int started = 0;
    int result = 0;

    g_mutex_lock(&lock);
    if (!started) {
        if (VIPS_INIT(program_name)) {
            result = vv_fail(error);
        } else {
            vips_cache_set_max(0);
            started = 1;
        }
    }
    if (result == 0 && concurrency > 0)
        vips_concurrency_set(concurrency);
    g_mutex_unlock(&lock);
    return result;
}

void
vv_set_allocator(int arenas, int heap_limit, int kept_free)
{
    mallopt(M_ARENA_MAX, arenas);
    mallopt(M_MMAP_THRESHOLD, heap_limit);
    mallopt(M_TRIM_THRESHOLD, kept_free);
}

const char *
vv_version(void)
{
    return vips_version_string();
}

const char *
vv_header_version(void)
{
    return VIPS_VERSION;
}

const char *
vv_library_path(void)
{
    Dl_info info;
    if (!dladdr((void *) vips_version_string, &info) || !info.dli_fname)
        return "";
    return info.dli_fname;
}

const char *
vv_loader_library_version(vv_loader_library library)
{
    static _Thread_local char version[64];
    version[0] = '\0';
    switch (library) {
    case VV_LIBRARY_RSVG: {
        const unsigned *major = dlsym(RTLD_DEFAULT, "rsvg_major_version");
        const unsigned *minor = dlsym(RTLD_DEFAULT, "rsvg_minor_version");
        const unsigned *micro = dlsym(RTLD_DEFAULT, "rsvg_micro_version");
        if (major && minor && micro)
            g_snprintf(version, sizeof(version), "%u.%u.%u", *major, *minor, *micro);
        break;
    }
    case VV_LIBRARY_POPPLER: {
        const char *(*get)(void) = (const char *(*)(void)) dlsym(RTLD_DEFAULT, "poppler_get_version");
        if (get)
            g_strlcpy(version, get(), sizeof(version));
        break;
    }
    case VV_LIBRARY_TIFF: {
        /* "LIBTIFF, Version 4.5.0\nCopyright …" */
        const char *(*get)(void) = (const char *(*)(void)) dlsym(RTLD_DEFAULT, "TIFFGetVersion");
        const char *number = get ? strstr(get(), "Version ") : NULL;
        if (number)
            g_strlcpy(version, number + strlen("Version "), MIN(sizeof(version), strcspn(number + 8, "\n") + 1));
        break;
    }
    case VV_LIBRARY_JXL: {
        /* major × 1,000,000 + minor × 1,000 + patch */
        uint32_t (*get)(void) = (uint32_t (*)(void)) dlsym(RTLD_DEFAULT, "JxlDecoderVersion");
        if (get) {
            uint32_t number = get();
            g_snprintf(version, sizeof(version), "%u.%u.%u", number / 1000000, number / 1000 % 1000, number % 1000);
        }
        break;
    }
    }
    return version;
}

void
vv_block_untrusted(int blocked)
{
    vips_block_untrusted_set(blocked != 0);
}

void
vv_block_operation(const char *name, int blocked)
{
    vips_operation_block_set(name, blocked != 0);
}

typedef struct loader_list {
    vv_loader_class *out;
    size_t capacity;
    size_t count;
} loader_list;

static void *
add_loader(GType type, void *data)
{
    loader_list *list = data;
    if (!G_TYPE_IS_ABSTRACT(type)) {
        if (list->count < list->capacity) {
            VipsOperationClass *class = VIPS_OPERATION_CLASS(g_type_class_ref(type));
            vv_loader_class *entry = &list->out[list->count];
            entry->name = g_type_name(type);
            entry->family = g_type_name(g_type_parent(type));
            entry->blocked = (class->flags & VIPS_OPERATION_BLOCKED) != 0;
        }
        list->count++;
    }
    return NULL;
}

size_t
vv_list_loaders(vv_loader_class *out, size_t capacity)
{
    loader_list list = {out, capacity, 0};
    vips_type_map_all(g_type_from_name("VipsForeignLoad"), add_loader, &list);
    return list.count;
}

int
vv_generic_loader_opens(const void *bytes, size_t length)
{
    /* libvips' sniffer still names blocked loaders; what the block stops is building the operation. */
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    vips_error_clear();
    if (!image)
        return 0;
    g_object_unref(image);
    return 1;
}

void
vv_unref(VipsImage *image)
{
    if (image)
        g_object_unref(image);
}

void
vv_free(void *bytes)
{
    g_free(bytes);
}
